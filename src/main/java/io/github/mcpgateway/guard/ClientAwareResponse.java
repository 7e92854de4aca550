package io.github.mcpgateway.guard;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.ReentrantLock;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.web.util.WebUtils;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.transport.McpRevisions;
import io.github.mcpgateway.transport.SilentReply;
import io.github.mcpgateway.transport.SseEventBoundary;
import io.github.mcpgateway.transport.StreamingMediaTypes;
import io.github.mcpgateway.transport.SynchronousOutputStream;

/**
 * Relays the upstream reply to the client, noticing when the client goes away.
 *
 * <p>
 * In MCP Streamable HTTP (up to 2025-11-25) a client disconnect is not a cancellation:
 * clients cancel with {@code notifications/cancelled}. So for a POST the gateway keeps
 * reading the upstream reply to its end after the client left ({@code drain} mode):
 * writes to the dead connection are dropped instead of aborting the copy, and the
 * upstream call completes normally (a {@link TappedResponse} above this one still sees
 * the whole reply, which is what lets a keyed retry be answered with a replay). For a GET
 * stream, and in MCP 2026-07-28 where closing the stream is the cancellation, the failure
 * propagates and the upstream connection is dropped; for such a stateless event stream a
 * silent upstream does not delay it ({@link StreamProbes}, {@link #probe}).
 *
 * <p>
 * Concurrency: the request thread writes the reply; the probe thread may write one SSE
 * comment between two events. Both hold {@link #lock} while writing, and the probe only
 * tries it, so it never waits for a write in progress.
 */
final class ClientAwareResponse extends HttpServletResponseWrapper {

	private final boolean drain;

	private static final byte[] PROBE = ":\n\n".getBytes(StandardCharsets.US_ASCII);

	private volatile boolean clientGone;

	private @Nullable Guarded stream;

	private final ReentrantLock lock = new ReentrantLock();

	/** Where the bytes written so far leave the event stream; guarded by the lock. */
	private final SseEventBoundary boundary = new SseEventBoundary();

	private final GatewayClock clock;

	private volatile long lastWriteNanos;

	/** Ends the upstream exchange when a probe finds the client gone. */
	private volatile @Nullable Runnable onGone;

	/** Whether probes may write; set before the reply starts, on the request thread. */
	private boolean probed;

	/** The response beneath that may open as an event stream while silent, if any. */
	private final @Nullable SilentReply silentReply;

	private ClientAwareResponse(HttpServletResponse response, boolean drain, GatewayClock clock) {
		super(response);
		this.drain = drain;
		this.silentReply = WebUtils.getNativeResponse(response, SilentReply.class);
		this.clock = clock;
		this.lastWriteNanos = clock.nanoTime();
	}

	/**
	 * The wrapper already around {@code response}, found through any wrappers above it,
	 * or a new one.
	 */
	static ClientAwareResponse of(HttpServletRequest request, HttpServletResponse response, GatewayClock clock) {
		ClientAwareResponse existing = WebUtils.getNativeResponse(response, ClientAwareResponse.class);
		return (existing != null) ? existing : new ClientAwareResponse(response, drainsOnDisconnect(request), clock);
	}

	/**
	 * A POST reply is read to its end after the client left, except where closing means
	 * cancel.
	 */
	static boolean drainsOnDisconnect(HttpServletRequest request) {
		if (!"POST".equals(request.getMethod())) {
			return false;
		}
		return !McpRevisions.isStateless(request);
	}

	boolean clientGone() {
		return this.clientGone;
	}

	/** Whether a probe may open the reply as an event stream while it is silent. */
	boolean opensWhenSilent() {
		return this.silentReply != null && !this.drain;
	}

	/**
	 * Whether {@link #probe} applies: a reply whose client leaving cancels it (not
	 * drained), committed as an event stream.
	 */
	boolean probeable() {
		return !this.drain;
	}

	/**
	 * Lets {@link #probe} run on this reply; {@code onGone} ends the upstream exchange
	 * when a probe finds the client gone. Until then writes take no lock and are not
	 * followed event by event (most replies are never probed).
	 */
	void probed(Runnable onGone) {
		this.onGone = onGone;
		this.probed = true;
	}

	/**
	 * Unless a write is in progress: writes an SSE comment if the reply is an event
	 * stream, silent for {@code intervalNanos} and between two events; or, while nothing
	 * of the reply has started, opens a {@link SilentReply} silent for
	 * {@code openAfterNanos} as an event stream (and keeps it alive every
	 * {@code intervalNanos}). A failed write means the client is gone.
	 */
	void probe(long now, long intervalNanos, long openAfterNanos) {
		if (this.clientGone || this.drain || !this.lock.tryLock()) {
			return;
		}
		try {
			if (isCommitted()) {
				probeEventStream(now, intervalNanos);
			}
			else if (this.silentReply != null && openAfterNanos > 0) {
				long due = this.silentReply.isOpen() ? intervalNanos : openAfterNanos;
				if (now - this.lastWriteNanos >= due && this.silentReply.keepAlive()) {
					this.lastWriteNanos = now;
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			this.clientGone = true;
			Runnable gone = this.onGone;
			if (gone != null) {
				gone.run();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void probeEventStream(long now, long intervalNanos) throws IOException {
		if (now - this.lastWriteNanos < intervalNanos || !StreamingMediaTypes.isEventStream(getContentType())
				|| !this.boundary.betweenEvents()) {
			return;
		}
		ServletOutputStream out = ((Guarded) getOutputStream()).delegate;
		out.write(PROBE, 0, PROBE.length);
		out.flush();
		this.lastWriteNanos = now;
	}

	/** Whether the client left and the reply was therefore not read to its end. */
	boolean replyCutShort() {
		return this.clientGone && !this.drain;
	}

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		this.lock.lock();
		try {
			if (this.stream == null) {
				this.stream = new Guarded(super.getOutputStream());
			}
			return this.stream;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void flushBuffer() throws IOException {
		if (this.clientGone) {
			return;
		}
		this.lock.lock();
		try {
			super.flushBuffer();
		}
		catch (IOException ex) {
			lost(ex);
		}
		finally {
			this.lock.unlock();
		}
	}

	private void lost(IOException ex) throws IOException {
		this.clientGone = true;
		if (!this.drain) {
			throw ex;
		}
	}

	private final class Guarded extends SynchronousOutputStream {

		private final ServletOutputStream delegate;

		Guarded(ServletOutputStream delegate) {
			this.delegate = delegate;
		}

		@Override
		public void write(byte[] buffer, int offset, int length) throws IOException {
			ClientAwareResponse outer = ClientAwareResponse.this;
			if (outer.clientGone && outer.drain) {
				return;
			}
			if (!outer.probed) {
				try {
					this.delegate.write(buffer, offset, length);
				}
				catch (IOException ex) {
					lost(ex);
				}
				return;
			}
			outer.lock.lock();
			try {
				this.delegate.write(buffer, offset, length);
				outer.boundary.scanAll(buffer, offset, length);
				outer.lastWriteNanos = outer.clock.nanoTime();
			}
			catch (IOException ex) {
				lost(ex);
			}
			finally {
				outer.lock.unlock();
			}
		}

		@Override
		public void flush() throws IOException {
			ClientAwareResponse outer = ClientAwareResponse.this;
			if (outer.clientGone && outer.drain) {
				return;
			}
			outer.lock.lock();
			try {
				this.delegate.flush();
			}
			catch (IOException ex) {
				lost(ex);
			}
			finally {
				outer.lock.unlock();
			}
		}

		@Override
		public void close() throws IOException {
			if (ClientAwareResponse.this.clientGone) {
				return;
			}
			try {
				this.delegate.close();
			}
			catch (IOException ex) {
				lost(ex);
			}
		}

	}

}
