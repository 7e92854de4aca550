package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * The client's stream of a virtual server (its GET), which several members' streams write
 * to at once: each write is one or more whole events of one member (as
 * {@code transport.SseMessageStream} emits them), written and flushed under one lock, so
 * that events of different members never interleave. The client's status and headers go
 * out when the first member's stream begins ({@link #open()}), so a GET that no member
 * serves can still be refused.
 *
 * <p>
 * Once a write to the client fails (the client left), every later write fails at once, so
 * each member's relay ends at its next event.
 */
final class MergedStream {

	private static final byte[] KEEP_ALIVE = ": keep-alive\n\n".getBytes(StandardCharsets.UTF_8);

	private static final byte[] LISTS_CHANGED = (event("tools") + event("prompts") + event("resources"))
		.getBytes(StandardCharsets.UTF_8);

	private final HttpServletResponse client;

	private final Object lock = new Object();

	private boolean committed;

	private volatile boolean closed;

	MergedStream(HttpServletResponse client) {
		this.client = client;
	}

	/** Writes whole events of one member. */
	void write(byte[] events, int offset, int length) throws IOException {
		if (this.closed) {
			throw new IOException("The client's stream has ended");
		}
		synchronized (this.lock) {
			try {
				commit();
				this.client.getOutputStream().write(events, offset, length);
				this.client.getOutputStream().flush();
			}
			catch (IOException ex) {
				this.closed = true;
				throw ex;
			}
		}
	}

	/**
	 * Sends the client's status and headers, once a member's stream has begun: a client
	 * learns that its stream is open before any event comes.
	 */
	void open() {
		synchronized (this.lock) {
			if (this.committed || this.closed) {
				return;
			}
			try {
				commit();
				this.client.flushBuffer();
			}
			catch (IOException ex) {
				this.closed = true;
			}
		}
	}

	/**
	 * Tells the client that the virtual server's lists changed (a policy reload changed
	 * its members, their selections or grants): one list-changed notification for each
	 * list, as a member's own would say it. A stream that has not begun or has ended is
	 * left alone.
	 */
	void listsChanged() {
		writeIfOpen(LISTS_CHANGED);
	}

	/**
	 * A comment, which clients ignore, on a stream that has begun: it keeps idle
	 * intermediaries from ending it, and tells the gateway when the client has left.
	 */
	void keepAlive() {
		writeIfOpen(KEEP_ALIVE);
	}

	/** Writes {@code bytes} on a stream that has begun and not ended; else nothing. */
	private void writeIfOpen(byte[] bytes) {
		synchronized (this.lock) {
			if (!this.committed || this.closed) {
				return;
			}
			try {
				this.client.getOutputStream().write(bytes);
				this.client.getOutputStream().flush();
			}
			catch (IOException ex) {
				this.closed = true;
			}
		}
	}

	/** Whether any member's stream began: the client was answered. */
	boolean committed() {
		synchronized (this.lock) {
			return this.committed;
		}
	}

	private static String event(String list) {
		return "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/" + list + "/list_changed\"}\n\n";
	}

	private void commit() {
		if (this.committed) {
			return;
		}
		this.client.setStatus(HttpServletResponse.SC_OK);
		this.client.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
		this.client.setHeader(HttpHeaders.CACHE_CONTROL, "no-cache");
		this.client.setHeader("X-Accel-Buffering", "no");
		this.committed = true;
	}

}
