package io.github.mcpgateway.transport;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * Wraps the response to a request whose reply the gateway reads message by message,
 * applying a {@link MessageFilter} before anything reaches the client.
 *
 * <p>
 * A JSON reply is held (up to {@code maxBytes}), filtered and written by
 * {@link #finish()}; an event stream is filtered event by event as it passes
 * ({@link SseMessageStream}), without buffering the stream. The upstream's
 * {@code Content-Length} no longer holds and is dropped. A reply the gateway cannot read
 * (content-encoded, JSON or an event over the cap) is handled as {@link Unreadable} says:
 * withheld (the filter fails closed and {@link #finish()} reports it, so that the caller
 * answers an error instead), or relayed unread where reading is an observation, not a
 * guard.
 */
public final class FilteredResponse extends HttpServletResponseWrapper {

	private final MessageFilter filter;

	private final CappedBuffer held;

	private final Unreadable unreadable;

	private final int maxBytes;

	private @Nullable ServletOutputStream stream;

	private boolean encoded;

	private boolean passing;

	public FilteredResponse(HttpServletResponse response, MessageFilter filter, int maxBytes, Unreadable unreadable) {
		super(response);
		this.filter = filter;
		this.held = new CappedBuffer(maxBytes);
		this.maxBytes = maxBytes;
		this.unreadable = unreadable;
	}

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		if (this.stream == null) {
			if (this.encoded && this.unreadable == Unreadable.PASS) {
				this.passing = true;
				this.stream = super.getOutputStream();
			}
			else if (isEventStream() && !this.encoded) {
				this.stream = new SseMessageStream(super.getOutputStream(), this.filter, this.maxBytes,
						this.unreadable);
			}
			else {
				this.stream = new HeldStream();
			}
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
		// An event stream's headers go out as soon as the proxy has them, before its
		// first event; a held JSON reply is written by finish() only.
		if (this.passing || (isEventStream() && (!this.encoded || this.unreadable == Unreadable.PASS))) {
			super.flushBuffer();
		}
	}

	@Override
	public void resetBuffer() {
		this.held.reset();
		this.encoded = false;
		this.passing = false;
		this.stream = null;
		super.resetBuffer();
	}

	/**
	 * Writes the held JSON reply, filtered. Call once the proxy is done.
	 * @return {@code false} when the reply was withheld: it could not be read, or the
	 * filter withheld it (a stream is then cut where the filter withheld)
	 */
	public boolean finish() throws IOException {
		if (this.stream instanceof SseMessageStream sse) {
			sse.close();
			return !sse.withheld();
		}
		if (this.passing) {
			return true;
		}
		if (this.encoded) {
			return false;
		}
		if (this.held.overflowed()) {
			return false;
		}
		// An empty body (202, 204) carries no message; anything else must be read to
		// pass.
		byte[] body = this.held.toByteArray();
		MessageFilter.Verdict verdict = (body.length == 0) ? MessageFilter.Verdict.PASS : this.filter.filter(body);
		byte[] out = switch (verdict.kind()) {
			case PASS -> body;
			case REWRITE -> verdict.rewritten();
			case DROP, WITHHOLD -> null;
		};
		if (out == null) {
			return false;
		}
		// No Content-Length: a response whose declared length is all written is sent at
		// once, and an earlier stage may hold the reply in the buffer until it has
		// recorded its outcome (the Idempotency-Key). The container declares the length
		// itself when the reply fits the buffer.
		getResponse().getOutputStream().write(out);
		return true;
	}

	private boolean accept(String name, @Nullable String value) {
		if (HttpHeaders.CONTENT_LENGTH.equalsIgnoreCase(name)) {
			return this.passing;
		}
		if (HttpHeaders.CONTENT_ENCODING.equalsIgnoreCase(name)) {
			if (ContentCoding.isEncoded(value)) {
				this.encoded = true;
				return this.unreadable == Unreadable.PASS;
			}
			return false;
		}
		return true;
	}

	private boolean isEventStream() {
		return StreamingMediaTypes.isEventStream(getContentType());
	}

	/** What becomes of a reply the gateway cannot read message by message. */
	public enum Unreadable {

		/** Withheld: the caller answers an error (or the stream ends). */
		WITHHOLD,
		/** Relayed as it comes, unread. */
		PASS

	}

	/**
	 * Holds a JSON reply for {@link #finish()}. Past the cap it keeps nothing more
	 * ({@link Unreadable#WITHHOLD}), or writes what it held and relays the rest as it
	 * comes ({@link Unreadable#PASS}).
	 */
	private final class HeldStream extends SynchronousOutputStream {

		@Override
		public void write(byte[] buffer, int offset, int length) throws IOException {
			FilteredResponse outer = FilteredResponse.this;
			if (outer.passing) {
				outer.getResponse().getOutputStream().write(buffer, offset, length);
				return;
			}
			if (outer.encoded) {
				return;
			}
			if (outer.unreadable == Unreadable.PASS && outer.held.size() + length > outer.maxBytes) {
				OutputStream out = outer.getResponse().getOutputStream();
				out.write(outer.held.toByteArray());
				outer.held.reset();
				out.write(buffer, offset, length);
				outer.passing = true;
				return;
			}
			outer.held.write(buffer, offset, length);
		}

	}

}
