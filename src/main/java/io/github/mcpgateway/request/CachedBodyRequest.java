package io.github.mcpgateway.request;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * A request whose body was read once into memory (bounded by the configured cap) and is
 * served again, byte for byte, to the proxy; or, where a stage must change what the
 * upstream receives ({@link #replacing}), a new body with a {@code Content-Length} to
 * match.
 */
public final class CachedBodyRequest extends HttpServletRequestWrapper {

	private final byte[] body;

	private final boolean replaced;

	CachedBodyRequest(HttpServletRequest request, byte[] body) {
		this(request, body, false);
	}

	private CachedBodyRequest(HttpServletRequest request, byte[] body, boolean replaced) {
		super(request);
		this.body = body;
		this.replaced = replaced;
	}

	/**
	 * {@code request} with {@code body} in place of the one it carries. A declared
	 * {@code Content-Length} is the new body's; a chunked request stays chunked.
	 */
	public static HttpServletRequest replacing(HttpServletRequest request, byte[] body) {
		return new CachedBodyRequest(request, body, true);
	}

	@Override
	public @Nullable String getHeader(String name) {
		String value = super.getHeader(name);
		return (this.replaced && value != null && HttpHeaders.CONTENT_LENGTH.equalsIgnoreCase(name))
				? Integer.toString(this.body.length) : value;
	}

	@Override
	public Enumeration<String> getHeaders(String name) {
		if (this.replaced && HttpHeaders.CONTENT_LENGTH.equalsIgnoreCase(name) && super.getHeader(name) != null) {
			return Collections.enumeration(List.of(Integer.toString(this.body.length)));
		}
		return super.getHeaders(name);
	}

	@Override
	public ServletInputStream getInputStream() {
		ByteArrayInputStream in = new ByteArrayInputStream(this.body);
		return new ServletInputStream() {

			@Override
			public int read() {
				return in.read();
			}

			@Override
			public int read(byte[] buffer, int offset, int length) {
				return in.read(buffer, offset, length);
			}

			@Override
			public boolean isFinished() {
				return in.available() == 0;
			}

			@Override
			public boolean isReady() {
				return true;
			}

			@Override
			public void setReadListener(ReadListener listener) {
				throw new UnsupportedOperationException("The cached body is read synchronously");
			}

		};
	}

	@Override
	public BufferedReader getReader() {
		return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
	}

	@Override
	public int getContentLength() {
		return this.body.length;
	}

	@Override
	public long getContentLengthLong() {
		return this.body.length;
	}

}
