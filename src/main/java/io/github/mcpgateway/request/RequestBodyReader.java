package io.github.mcpgateway.request;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.regex.Pattern;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.http.MediaType;
import org.springframework.util.unit.DataSize;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrors;

/**
 * Reads a POST body into memory, never more than the cap plus one byte: a declared
 * {@code Content-Length} over the cap is refused before reading, a chunked body is
 * refused as soon as it passes the cap (413 {@code request_too_large}). A body that is
 * not JSON in UTF-8 is refused with 415 {@code unsupported_media_type}.
 *
 * <p>
 * A body must arrive whole within the read timeout
 * ({@code gateway.request.body-read-timeout}), counted from the first read: a client that
 * sends a byte every few seconds keeps every single read short, so the deadline is
 * checked between reads, and one read waits at most Tomcat's
 * {@code server.tomcat.connection-timeout}. A body late by either is refused with 408
 * {@code request_body_timeout}, a status on which Tomcat closes the connection. The
 * request thread is thus held at most the read timeout plus one connection timeout.
 */
public final class RequestBodyReader {

	/** A {@code charset} parameter, counted to refuse one given twice. */
	private static final Pattern CHARSET_PARAMETER = Pattern.compile(";\\s*charset\\s*=", Pattern.CASE_INSENSITIVE);

	/**
	 * The request attribute under which a filter ahead of the pipeline leaves the body it
	 * read already (a {@code byte[]} within the cap): read here instead of the drained
	 * input stream, without a request wrapper for every later call to go through.
	 */
	public static final String READ_AHEAD = RequestBodyReader.class.getName() + ".readAhead";

	private static final int CHUNK = 8192;

	private final int maxBytes;

	private final long readTimeoutNanos;

	private final GatewayClock clock;

	public RequestBodyReader(DataSize maxBodySize, Duration readTimeout, GatewayClock clock) {
		this.maxBytes = (int) maxBodySize.toBytes();
		this.readTimeoutNanos = readTimeout.toNanos();
		this.clock = clock;
	}

	public byte[] read(HttpServletRequest request) throws IOException {
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
			return readWithinDeadline(in, request.getContentLengthLong());
		}
		catch (SocketTimeoutException ex) {
			throw new GatewayErrorException(GatewayErrors.REQUEST_BODY_TIMEOUT);
		}
		catch (IOException ex) {
			if (ex.getCause() instanceof SocketTimeoutException) {
				throw new GatewayErrorException(GatewayErrors.REQUEST_BODY_TIMEOUT);
			}
			throw ex;
		}
	}

	/**
	 * Reads to the end of the body, no more than the cap plus one byte, checking the
	 * deadline before every read after the first.
	 */
	private byte[] readWithinDeadline(InputStream in, long declaredLength) throws IOException {
		long deadline = this.clock.nanoTime() + this.readTimeoutNanos;
		int limit = this.maxBytes + 1;
		byte[] buffer = new byte[(int) Math.min(limit, (declaredLength >= 0) ? declaredLength + 1 : CHUNK)];
		int length = 0;
		while (true) {
			if (length == buffer.length) {
				if (length == limit) {
					break;
				}
				buffer = Arrays.copyOf(buffer, (int) Math.min(limit, (long) length * 2));
			}
			if (length > 0 && this.clock.nanoTime() - deadline > 0) {
				throw new GatewayErrorException(GatewayErrors.REQUEST_BODY_TIMEOUT);
			}
			int read = in.read(buffer, length, Math.min(CHUNK, buffer.length - length));
			if (read < 0) {
				break;
			}
			length += read;
		}
		if (length > this.maxBytes) {
			throw new GatewayErrorException(GatewayErrors.REQUEST_TOO_LARGE);
		}
		return (length == buffer.length) ? buffer : Arrays.copyOf(buffer, length);
	}

	/**
	 * Whether {@code contentType} is {@code application/json} read as UTF-8: with no
	 * {@code charset} or with {@code charset=utf-8} (any case, quoted or not); other
	 * parameters are allowed. The gateway reads every body as UTF-8 (RFC 8259, section
	 * 8.1) and forwards the header as sent, so another charset would have the upstream
	 * decode, and run, what the gateway did not decide on. A {@code charset} given twice
	 * is refused whatever its values: Spring's parser keeps the last, another may keep
	 * the first.
	 */
	public static boolean isJson(@Nullable String contentType) {
		if (contentType == null || CHARSET_PARAMETER.matcher(contentType).results().count() > 1) {
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
