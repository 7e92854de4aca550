package io.github.mcpgateway.stdio;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a stdio server sends a session's client of its own (requests such as
 * {@code roots/list}, notifications), held in one bounded queue that the session's
 * {@code GET} stream drains ({@link SessionEventStream}). While no stream is open the
 * queue keeps the messages, so a server that speaks right after {@code initialize} loses
 * nothing to a client that opens its stream a moment later. Thread-safe.
 */
final class ClientStream {

	/** How many messages wait for the client's stream. */
	static final int CAPACITY = 1000;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final BlockingQueue<byte[]> queue = new LinkedBlockingQueue<>(CAPACITY);

	private final AtomicBoolean open = new AtomicBoolean();

	private volatile long dropped;

	/**
	 * Queues a message for the client.
	 * @return {@code false} when the queue is full and the message was dropped (counted)
	 */
	boolean offer(JsonNode message) {
		if (this.queue.offer(JSON.writeValueAsBytes(message))) {
			return true;
		}
		synchronized (this) {
			this.dropped++;
		}
		return false;
	}

	/** Messages dropped because the queue was full. */
	long dropped() {
		return this.dropped;
	}

	/**
	 * The stream of the queued messages, until {@code ended} holds or it is closed.
	 * @param onRead told when the stream opens and for each message it takes
	 * @return {@code null} when a stream is already open
	 */
	@Nullable SessionEventStream open(BooleanSupplier ended, Runnable onRead) {
		if (!this.open.compareAndSet(false, true)) {
			return null;
		}
		onRead.run();
		return new SessionEventStream(this.queue, ended, () -> this.open.set(false), onRead);
	}

}
