package io.github.mcpgateway.policy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * Wraps the response to a {@code tools/list} request so that the client only sees the
 * tools its principal may call.
 *
 * <p>
 * A JSON reply is held (up to {@code maxBytes}), filtered and written by
 * {@link #finish()}; an event stream is filtered event by event as it passes
 * ({@link SseToolListStream}), without buffering the stream. The upstream's
 * {@code Content-Length} no longer holds and is dropped. A reply the gateway cannot
 * filter (content-encoded, or JSON over the cap) is withheld: the filter fails closed and
 * {@link #finish()} reports it, so that the caller answers an error instead.
 */
final class ToolListFilteringResponse extends HttpServletResponseWrapper {

	private final ToolListRewriter rewriter;

	private final int maxBytes;

	private final ByteArrayOutputStream held = new ByteArrayOutputStream();

	private @Nullable ServletOutputStream stream;

	private boolean unfilterable;

	ToolListFilteringResponse(HttpServletResponse response, ToolListRewriter rewriter, int maxBytes) {
		super(response);
		this.rewriter = rewriter;
		this.maxBytes = maxBytes;
	}

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		if (this.stream == null) {
			this.stream = (isEventStream() && !this.unfilterable)
					? new SseToolListStream(super.getOutputStream(), this.rewriter) : new HeldStream();
		}
		return this.stream;
	}

	@Override
	public PrintWriter getWriter() {
		throw new IllegalStateException("The proxy writes bytes; a writer is not supported");
	}

	@Override
	public void setContentLength(int length) {
	}

	@Override
	public void setContentLengthLong(long length) {
	}

	@Override
	public void setHeader(String name, @Nullable String value) {
		if (accept(name, value)) {
			super.setHeader(name, value);
		}
	}

	@Override
	public void addHeader(String name, @Nullable String value) {
		if (accept(name, value)) {
			super.addHeader(name, value);
		}
	}

	@Override
	public void flushBuffer() throws IOException {
		if (this.stream instanceof SseToolListStream) {
			super.flushBuffer();
		}
	}

	@Override
	public void resetBuffer() {
		this.held.reset();
		this.unfilterable = false;
		this.stream = null;
		super.resetBuffer();
	}

	/**
	 * Writes the held JSON reply, filtered. Call once the proxy is done.
	 * @return {@code false} when the reply could not be filtered and was withheld
	 */
	boolean finish() throws IOException {
		if (this.stream instanceof SseToolListStream sse) {
			sse.close();
			return true;
		}
		if (this.unfilterable) {
			return false;
		}
		byte[] body = this.held.toByteArray();
		byte[] rewritten = this.rewriter.rewrite(body);
		byte[] out = (rewritten != null) ? rewritten : body;
		HttpServletResponse response = (HttpServletResponse) getResponse();
		response.setContentLength(out.length);
		response.getOutputStream().write(out);
		return true;
	}

	private boolean accept(String name, @Nullable String value) {
		if (HttpHeaders.CONTENT_LENGTH.equalsIgnoreCase(name)) {
			return false;
		}
		if (HttpHeaders.CONTENT_ENCODING.equalsIgnoreCase(name)) {
			if (value != null && !value.isBlank() && !"identity".equalsIgnoreCase(value.trim())) {
				this.unfilterable = true;
			}
			return false;
		}
		return true;
	}

	private boolean isEventStream() {
		String type = getContentType();
		try {
			return type != null && MediaType.TEXT_EVENT_STREAM.equalsTypeAndSubtype(MediaType.parseMediaType(type));
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	/** Holds a JSON reply for {@link #finish()}, refusing to grow past the cap. */
	private final class HeldStream extends ServletOutputStream {

		@Override
		public void write(int b) {
			write(new byte[] { (byte) b }, 0, 1);
		}

		@Override
		public void write(byte[] buffer, int offset, int length) {
			if (ToolListFilteringResponse.this.unfilterable) {
				return;
			}
			if (ToolListFilteringResponse.this.held.size() + length > ToolListFilteringResponse.this.maxBytes) {
				ToolListFilteringResponse.this.unfilterable = true;
				ToolListFilteringResponse.this.held.reset();
				return;
			}
			ToolListFilteringResponse.this.held.write(buffer, offset, length);
		}

		@Override
		public boolean isReady() {
			return true;
		}

		@Override
		public void setWriteListener(WriteListener listener) {
			throw new UnsupportedOperationException("The proxy writes synchronously");
		}

	}

}
