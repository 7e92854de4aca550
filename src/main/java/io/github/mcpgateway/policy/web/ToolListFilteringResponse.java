package io.github.mcpgateway.policy.web;

import java.io.IOException;
import java.io.PrintWriter;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

import io.github.mcpgateway.transport.CappedBuffer;
import io.github.mcpgateway.transport.ContentCoding;
import io.github.mcpgateway.transport.StreamingMediaTypes;
import io.github.mcpgateway.transport.SynchronousOutputStream;

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

	private final CappedBuffer held;

	private @Nullable ServletOutputStream stream;

	private boolean unfilterable;

	ToolListFilteringResponse(HttpServletResponse response, ToolListRewriter rewriter, int maxBytes) {
		super(response);
		this.rewriter = rewriter;
		this.held = new CappedBuffer(maxBytes);
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
			return !sse.unfilterable();
		}
		if (this.unfilterable || this.held.overflowed()) {
			return false;
		}
		// An empty body (202, 204) carries no tools; anything else must be read to pass.
		ToolListRewriter.Result result = (this.held.size() == 0) ? ToolListRewriter.Result.UNCHANGED
				: this.rewriter.rewrite(this.held.toByteArray());
		if (result.unfilterable()) {
			return false;
		}
		byte[] out = (result.rewritten() != null) ? result.rewritten() : this.held.toByteArray();
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
			if (ContentCoding.isEncoded(value)) {
				this.unfilterable = true;
			}
			return false;
		}
		return true;
	}

	private boolean isEventStream() {
		return StreamingMediaTypes.isEventStream(getContentType());
	}

	/** Holds a JSON reply for {@link #finish()}, refusing to grow past the cap. */
	private final class HeldStream extends SynchronousOutputStream {

		@Override
		public void write(byte[] buffer, int offset, int length) {
			if (!ToolListFilteringResponse.this.unfilterable) {
				ToolListFilteringResponse.this.held.write(buffer, offset, length);
			}
		}

	}

}
