package io.github.mcpgateway.request;

import java.io.IOException;
import java.io.InputStream;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.http.MediaType;
import org.springframework.util.unit.DataSize;

import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrors;

/**
 * Reads a POST body into memory, never more than the cap plus one byte: a declared
 * {@code Content-Length} over the cap is refused before reading, a chunked body is
 * refused as soon as it passes the cap (413 {@code request_too_large}). A body that is
 * not JSON in UTF-8 is refused with 415 {@code unsupported_media_type}.
 */
public final class RequestBodyReader {

	/**
	 * The request attribute under which a filter ahead of the pipeline leaves the body it
	 * read already (a {@code byte[]} within the cap): read here instead of the drained
	 * input stream, without a request wrapper for every later call to go through.
	 */
	public static final String READ_AHEAD = RequestBodyReader.class.getName() + ".readAhead";

	private final int maxBytes;

	RequestBodyReader(DataSize maxBodySize) {
		this.maxBytes = (int) maxBodySize.toBytes();
	}

	byte[] read(HttpServletRequest request) throws IOException {
		if (!isJson(request.getContentType())) {
			throw new GatewayErrorException(GatewayErrors.UNSUPPORTED_MEDIA_TYPE);
		}
		if (request.getContentLengthLong() > this.maxBytes) {
			throw new GatewayErrorException(GatewayErrors.REQUEST_TOO_LARGE);
		}
		if (request.getAttribute(READ_AHEAD) instanceof byte[] readAhead && readAhead.length <= this.maxBytes) {
			request.removeAttribute(READ_AHEAD);
			return readAhead;
		}
		try (InputStream in = request.getInputStream()) {
			byte[] body = in.readNBytes(this.maxBytes + 1);
			if (body.length > this.maxBytes) {
				throw new GatewayErrorException(GatewayErrors.REQUEST_TOO_LARGE);
			}
			return body;
		}
	}

	/**
	 * Whether {@code contentType} is {@code application/json} read as UTF-8: with no
	 * {@code charset} or with {@code charset=utf-8} (any case, quoted or not); other
	 * parameters are allowed. The gateway reads every body as UTF-8 (RFC 8259, section
	 * 8.1) and forwards the header as sent, so another charset would have the upstream
	 * decode, and run, what the gateway did not decide on.
	 */
	public static boolean isJson(@Nullable String contentType) {
		if (contentType == null) {
			return false;
		}
		try {
			MediaType type = MediaType.parseMediaType(contentType);
			return MediaType.APPLICATION_JSON.equalsTypeAndSubtype(type) && isUtf8(type.getParameter("charset"));
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	private static boolean isUtf8(@Nullable String charset) {
		if (charset == null) {
			return true;
		}
		boolean quoted = charset.length() >= 2 && charset.startsWith("\"") && charset.endsWith("\"");
		return "utf-8".equalsIgnoreCase(quoted ? charset.substring(1, charset.length() - 1) : charset);
	}

}
