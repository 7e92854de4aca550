package io.github.mcpgateway.guard;

import java.io.IOException;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

import io.github.mcpgateway.transport.ReplyTap;
import io.github.mcpgateway.transport.SynchronousOutputStream;

/**
 * Shows every byte of the reply to the request's {@link ReplyTap}, and holds back a reply
 * the tap asks for: no flush and no declared length reach the client until the request
 * completes. Sits above the {@link ClientAwareResponse}, so the tap sees the whole reply
 * even after the client left.
 *
 * <p>
 * Why the length is withheld: a servlet response whose declared length has been written
 * is closed and flushed at once (Servlet specification, closure of the response), which
 * would let the client see the reply before whoever tapped it recorded its outcome. The
 * container declares the length itself when the request ends with the body still in its
 * buffer, and chunks a body too large for it.
 */
final class TappedResponse extends HttpServletResponseWrapper {

	private final ReplyTap tap;

	private @Nullable ServletOutputStream stream;

	TappedResponse(HttpServletResponse response, ReplyTap tap) {
		super(response);
		this.tap = tap;
	}

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		if (this.stream == null) {
			this.stream = new Tapped(super.getOutputStream());
		}
		return this.stream;
	}

	@Override
	public void setContentLength(int length) {
	}

	@Override
	public void setContentLengthLong(long length) {
	}

	@Override
	public void setHeader(String name, String value) {
		if (!HttpHeaders.CONTENT_LENGTH.equalsIgnoreCase(name)) {
			super.setHeader(name, value);
		}
	}

	@Override
	public void addHeader(String name, String value) {
		if (!HttpHeaders.CONTENT_LENGTH.equalsIgnoreCase(name)) {
			super.addHeader(name, value);
		}
	}

	@Override
	public void setIntHeader(String name, int value) {
		if (!HttpHeaders.CONTENT_LENGTH.equalsIgnoreCase(name)) {
			super.setIntHeader(name, value);
		}
	}

	@Override
	public void addIntHeader(String name, int value) {
		if (!HttpHeaders.CONTENT_LENGTH.equalsIgnoreCase(name)) {
			super.addIntHeader(name, value);
		}
	}

	@Override
	public void resetBuffer() {
		this.tap.reset();
		super.resetBuffer();
	}

	@Override
	public void flushBuffer() throws IOException {
		if (!holdsBack()) {
			super.flushBuffer();
		}
	}

	private boolean holdsBack() {
		return this.tap.holdsBack(getContentType());
	}

	private final class Tapped extends SynchronousOutputStream {

		private final ServletOutputStream delegate;

		Tapped(ServletOutputStream delegate) {
			this.delegate = delegate;
		}

		@Override
		public void write(byte[] buffer, int offset, int length) throws IOException {
			TappedResponse.this.tap.write(buffer, offset, length);
			this.delegate.write(buffer, offset, length);
		}

		@Override
		public void flush() throws IOException {
			if (!holdsBack()) {
				this.delegate.flush();
			}
		}

		@Override
		public void close() throws IOException {
			// Closing flushes: a held-back reply is closed by the container when the
			// request ends.
			if (!holdsBack()) {
				this.delegate.close();
			}
		}

	}

}
