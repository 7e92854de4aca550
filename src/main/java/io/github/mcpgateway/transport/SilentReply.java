package io.github.mcpgateway.transport;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.ReentrantLock;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * The client's response to a stateless (2026-07-28) request whose client accepts an event
 * stream, as every stage sees it: a response whose reply may be delivered as an event
 * stream once the upstream has been silent too long.
 *
 * <p>
 * Why: in that revision closing the response stream is the cancellation of the request,
 * and a servlet container learns that a client left only when it writes to it. While the
 * upstream prepares a JSON reply nothing can be written, so a client that gave up would
 * go unnoticed until the reply came. The revision lets a server answer any request as an
 * event stream, and clients must accept both forms.
 *
 * <p>
 * Contract:
 * <ul>
 * <li>Until {@link #keepAlive()} is first called, and for good once the stages start the
 * reply first (a status, a body, a flush), it is the response itself: a fast reply keeps
 * its form and its status.</li>
 * <li>The first {@code keepAlive()} while nothing of the reply has started answers
 * {@code 200 text/event-stream} at once with an SSE comment ({@code :}, which clients
 * ignore and the revision recommends as a keep-alive); each later one, while the reply
 * has still not started, writes another. A failed write throws: the client is gone.</li>
 * <li>The reply the stages then write is delivered in that stream
 * ({@link SilentReplyBody}): a 200 event stream as it is, a 200 JSON body as the stream's
 * one {@code message} event, anything else (an error status, another media type, an
 * encoded body) as a JSON-RPC response event: the body itself when it is one, else the
 * gateway error {@code upstream_http_error} with the request's id.</li>
 * <li>The status and headers the stages set after the stream opened never reach the
 * client, whose status line already said 200; {@link #getStatus()} and
 * {@link #getContentType()} still report them, so that the circuit breaker, the
 * Idempotency-Key store and the audit see the upstream's answer. {@link #isCommitted()}
 * stays {@code false} until the stages write the body, so the gateway still answers its
 * own errors as for an uncommitted response.</li>
 * <li>{@link #finish()} ends the event once the request is done.</li>
 * </ul>
 * Concurrency: {@code keepAlive} runs on the probe thread, everything else on the request
 * thread; the lock orders opening the stream against the start of the reply.
 */
public final class SilentReply extends HttpServletResponseWrapper {

	private static final byte[] COMMENT = ":\n\n".getBytes(StandardCharsets.US_ASCII);

	private final ReentrantLock lock = new ReentrantLock();

	private final SilentReplyBody body;

	private volatile State state = State.WAITING;

	/** What the stages declared; applied to the client only if the stream never opens. */
	private int status = SC_OK;

	private @Nullable String contentType;

	private @Nullable String contentEncoding;

	private long contentLength = -1;

	private @Nullable PrintWriter writer;

	SilentReply(HttpServletResponse response, SilentReplyBody body) {
		super(response);
		this.body = body;
	}

	/**
	 * Opens the event stream, or keeps it alive, while the reply has not started.
	 * @return whether a comment was written; {@code false} once the reply started
	 * @throws IOException when the write failed: the client is gone
	 */
	public boolean keepAlive() throws IOException {
		this.lock.lock();
		try {
			if (this.state == State.WAITING) {
				open();
				this.state = State.OPEN;
				return true;
			}
			if (this.state == State.OPEN) {
				comment();
				return true;
			}
			return false;
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Whether the event stream was opened. */
	public boolean isOpen() {
		State current = this.state;
		return current == State.OPEN || current == State.REPLYING;
	}

	/**
	 * Ends the stream's event once the request is done; nothing when the stream never
	 * opened. Never throws: a client gone by then is gone.
	 */
	public void finish() {
		if (!isOpen()) {
			return;
		}
		try {
			replying();
			if (this.writer != null) {
				this.writer.flush();
			}
			this.body.finish(this.status);
		}
		catch (IOException ex) {
			// The client left after the reply was written.
		}
	}

	private void open() throws IOException {
		HttpServletResponse client = (HttpServletResponse) getResponse();
		client.setStatus(SC_OK);
		client.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
		client.setHeader(HttpHeaders.CACHE_CONTROL, "no-cache");
		client.setHeader("X-Accel-Buffering", "no");
		comment();
	}

	private void comment() throws IOException {
		ServletOutputStream out = getResponse().getOutputStream();
		out.write(COMMENT);
		out.flush();
	}

	/**
	 * The stages start the reply: before the stream opened it goes to the client as it
	 * is; after, its body goes into the stream.
	 */
	private State started() {
		State current = this.state;
		if (current == State.WAITING || current == State.OPEN) {
			this.lock.lock();
			try {
				if (this.state == State.WAITING) {
					direct();
				}
				current = this.state;
			}
			finally {
				this.lock.unlock();
			}
		}
		return current;
	}

	/** The reply goes to the client as it is, with what was held back for it. */
	private void direct() {
		this.state = State.DIRECT;
		if (this.contentEncoding != null) {
			super.setHeader(HttpHeaders.CONTENT_ENCODING, this.contentEncoding);
		}
		if (this.contentLength >= 0) {
			super.setContentLengthLong(this.contentLength);
		}
	}

	/** The first byte of the body after the stream opened. */
	private void replying() throws IOException {
		if (this.state != State.OPEN) {
			return;
		}
		this.lock.lock();
		try {
			if (this.state == State.OPEN) {
				this.state = State.REPLYING;
				this.body.start(this.status, this.contentType, this.contentEncoding);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private boolean passesThrough() {
		State current = this.state;
		return current == State.WAITING || current == State.DIRECT;
	}

	@Override
	public void setStatus(int sc) {
		if (started() == State.DIRECT) {
			super.setStatus(sc);
		}
		this.status = sc;
	}

	@Override
	public void sendError(int sc) throws IOException {
		sendError(sc, null);
	}

	@Override
	public void sendError(int sc, @Nullable String message) throws IOException {
		if (started() == State.DIRECT) {
			super.sendError(sc, message);
		}
		this.status = sc;
	}

	@Override
	public int getStatus() {
		return (this.state == State.DIRECT) ? super.getStatus() : this.status;
	}

	@Override
	public void setContentType(@Nullable String type) {
		if (passesThrough()) {
			super.setContentType(type);
		}
		this.contentType = type;
	}

	@Override
	public @Nullable String getContentType() {
		return passesThrough() ? super.getContentType() : this.contentType;
	}

	@Override
	public void setContentLength(int length) {
		setContentLengthLong(length);
	}

	@Override
	public void setContentLengthLong(long length) {
		if (this.state == State.DIRECT) {
			super.setContentLengthLong(length);
		}
		this.contentLength = length;
	}

	@Override
	public void setHeader(String name, @Nullable String value) {
		if (!held(name, value)) {
			super.setHeader(name, value);
		}
	}

	@Override
	public void addHeader(String name, @Nullable String value) {
		if (!held(name, value)) {
			super.addHeader(name, value);
		}
	}

	@Override
	public void setIntHeader(String name, int value) {
		if (!held(name, Integer.toString(value))) {
			super.setIntHeader(name, value);
		}
	}

	@Override
	public void addIntHeader(String name, int value) {
		if (!held(name, Integer.toString(value))) {
			super.addIntHeader(name, value);
		}
	}

	@Override
	public void setDateHeader(String name, long date) {
		if (passesThrough()) {
			super.setDateHeader(name, date);
		}
	}

	@Override
	public void addDateHeader(String name, long date) {
		if (passesThrough()) {
			super.addDateHeader(name, date);
		}
	}

	/**
	 * Whether a header is held back from the client: the body's framing headers until the
	 * reply goes out as it is, and every header once the stream opened.
	 */
	private boolean held(String name, @Nullable String value) {
		if (HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name)) {
			setContentType(value);
			return true;
		}
		if (this.state == State.DIRECT) {
			return false;
		}
		if (HttpHeaders.CONTENT_ENCODING.equalsIgnoreCase(name)) {
			this.contentEncoding = value;
			return true;
		}
		if (HttpHeaders.CONTENT_LENGTH.equalsIgnoreCase(name)) {
			this.contentLength = (value != null) ? Long.parseLong(value.trim()) : -1;
			return true;
		}
		return this.state != State.WAITING;
	}

	@Override
	public @Nullable String getHeader(String name) {
		if (this.state != State.DIRECT) {
			if (HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name)) {
				return getContentType();
			}
			if (HttpHeaders.CONTENT_ENCODING.equalsIgnoreCase(name)) {
				return this.contentEncoding;
			}
		}
		return super.getHeader(name);
	}

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		if (started() == State.DIRECT) {
			return super.getOutputStream();
		}
		return new Body();
	}

	@Override
	public PrintWriter getWriter() throws IOException {
		if (started() == State.DIRECT) {
			return super.getWriter();
		}
		if (this.writer == null) {
			this.writer = new PrintWriter(new OutputStreamWriter(new Body(), StandardCharsets.UTF_8));
		}
		return this.writer;
	}

	@Override
	public void flushBuffer() throws IOException {
		if (started() == State.DIRECT) {
			super.flushBuffer();
		}
		else if (this.state == State.REPLYING) {
			this.body.flush();
		}
	}

	@Override
	public boolean isCommitted() {
		State current = this.state;
		if (current == State.OPEN) {
			return false;
		}
		return current == State.REPLYING || super.isCommitted();
	}

	@Override
	public void reset() {
		checkNotReplying();
		if (passesThrough()) {
			super.reset();
			this.contentEncoding = null;
			this.contentLength = -1;
		}
		this.status = SC_OK;
		this.contentType = null;
	}

	@Override
	public void resetBuffer() {
		checkNotReplying();
		if (passesThrough()) {
			super.resetBuffer();
		}
	}

	private void checkNotReplying() {
		if (this.state == State.REPLYING) {
			throw new IllegalStateException("The reply already started in its event stream");
		}
	}

	private enum State {

		/** Nothing of the reply has reached the client. */
		WAITING,
		/** The stages started the reply first: it goes to the client as it is. */
		DIRECT,
		/** The event stream was opened; the stages have not written the body yet. */
		OPEN,
		/** The stages write the body, into the event stream. */
		REPLYING

	}

	/** The stages' body after the stream opened, into {@link SilentReplyBody}. */
	private final class Body extends SynchronousOutputStream {

		@Override
		public void write(byte[] buffer, int offset, int length) throws IOException {
			replying();
			SilentReply.this.body.write(buffer, offset, length);
		}

		@Override
		public void flush() throws IOException {
			if (SilentReply.this.state == State.REPLYING) {
				SilentReply.this.body.flush();
			}
		}

	}

}
