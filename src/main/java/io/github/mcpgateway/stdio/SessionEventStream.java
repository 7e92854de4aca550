package io.github.mcpgateway.stdio;

import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A stdio session's {@code GET} stream as the body of an HTTP response: each message of
 * the process's own queue becomes one {@code text/event-stream} event
 * ({@code event: message}, the JSON on one {@code data} line); a comment line goes out
 * when nothing was sent for {@link #KEEP_ALIVE_SECONDS}, so that a proxy between the
 * gateway and the client does not close a quiet stream. The stream ends when the process
 * has ended; closing it leaves the messages it has not taken in the queue, for the next
 * stream of the session.
 *
 * <p>
 * Read by one thread, the one relaying the response.
 */
final class SessionEventStream extends InputStream {

	static final int KEEP_ALIVE_SECONDS = 15;

	private static final byte[] KEEP_ALIVE = ": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] EVENT_START = "event: message\ndata: ".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] EVENT_END = "\n\n".getBytes(StandardCharsets.US_ASCII);

	private final BlockingQueue<byte[]> messages;

	private final BooleanSupplier ended;

	private final Runnable onClose;

	private final Runnable onMessage;

	private byte[] chunk = new byte[0];

	private int position;

	private volatile boolean closed;

	/**
	 * @param messages the session's queue, one compact JSON message an entry
	 * @param ended whether the process has ended
	 * @param onClose told once, when the stream is closed
	 * @param onMessage told for each message taken
	 */
	SessionEventStream(BlockingQueue<byte[]> messages, BooleanSupplier ended, Runnable onClose, Runnable onMessage) {
		this.messages = messages;
		this.ended = ended;
		this.onClose = onClose;
		this.onMessage = onMessage;
	}

	@Override
	public int read() throws InterruptedIOException {
		byte[] one = new byte[1];
		return (read(one, 0, 1) < 0) ? -1 : (one[0] & 0xff);
	}

	@Override
	public int read(byte[] buffer, int offset, int length) throws InterruptedIOException {
		if (length == 0) {
			return 0;
		}
		if (this.position == this.chunk.length && !nextChunk()) {
			return -1;
		}
		int count = Math.min(length, this.chunk.length - this.position);
		System.arraycopy(this.chunk, this.position, buffer, offset, count);
		this.position += count;
		return count;
	}

	/** The next event, or a keep-alive; {@code false} at the end of the stream. */
	private boolean nextChunk() throws InterruptedIOException {
		int waited = 0;
		while (!this.closed) {
			byte[] message = poll();
			if (message != null) {
				this.onMessage.run();
				this.chunk = event(message);
				this.position = 0;
				return true;
			}
			if (this.ended.getAsBoolean()) {
				return false;
			}
			if (++waited >= KEEP_ALIVE_SECONDS) {
				this.chunk = KEEP_ALIVE;
				this.position = 0;
				return true;
			}
		}
		return false;
	}

	private byte[] poll() throws InterruptedIOException {
		try {
			return this.messages.poll(1, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new InterruptedIOException("interrupted while waiting for the stdio server");
		}
	}

	private static byte[] event(byte[] message) {
		byte[] event = new byte[EVENT_START.length + message.length + EVENT_END.length];
		System.arraycopy(EVENT_START, 0, event, 0, EVENT_START.length);
		System.arraycopy(message, 0, event, EVENT_START.length, message.length);
		System.arraycopy(EVENT_END, 0, event, EVENT_START.length + message.length, EVENT_END.length);
		return event;
	}

	@Override
	public void close() {
		if (!this.closed) {
			this.closed = true;
			this.onClose.run();
		}
	}

}
