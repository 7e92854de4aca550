package io.github.mcpgateway.stdio;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.transport.UpstreamCall;

/**
 * One child process of a stdio server as the sessions use it: requests written to it wait
 * here for the response with their id; every other message it writes (its own requests
 * and notifications) goes to {@code ownMessages}. Knows when it last saw traffic, why the
 * gateway stopped it, and how it ended.
 *
 * <p>
 * Thread-safe: the process's reader thread calls {@link StdioListener}, request threads
 * the rest.
 */
final class StdioChild implements StdioListener {

	private final McpServerPolicy server;

	private final GatewayClock clock;

	private final Consumer<JsonNode> ownMessages;

	private final Consumer<StdioChild> onEnd;

	private final ConcurrentMap<String, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();

	private final AtomicReference<@Nullable StdioEnd> end = new AtomicReference<>();

	private final AtomicReference<@Nullable String> stopCause = new AtomicReference<>();

	private volatile long lastActivity;

	private volatile @Nullable StdioProcess process;

	/**
	 * @param server the server, as the policy declared it when the process started
	 * @param ownMessages receives, on the reader thread, each message that is not a
	 * response
	 * @param onEnd told once, from the reader thread, when the process has ended
	 */
	StdioChild(McpServerPolicy server, GatewayClock clock, Consumer<JsonNode> ownMessages, Consumer<StdioChild> onEnd) {
		this.server = server;
		this.clock = clock;
		this.ownMessages = ownMessages;
		this.onEnd = onEnd;
		this.lastActivity = clock.nanoTime();
	}

	McpServerPolicy server() {
		return this.server;
	}

	void started(StdioProcess process) {
		this.process = process;
	}

	@Nullable StdioProcess process() {
		return this.process;
	}

	/** The process's id, {@code -1} before it started. */
	long pid() {
		StdioProcess running = this.process;
		return (running != null) ? running.pid() : -1;
	}

	/**
	 * Sends a request and waits for the process's response with the same id.
	 * @param onDispatch receives the call once the request is written, so that another
	 * thread can give up on it (the reply is then dropped when it comes)
	 * @param onGivenUp run when another thread gave the call up
	 * @throws DuplicateRequestIdException when a request with the same id is in flight
	 * @throws ProcessEndedException when the process had ended: nothing was sent
	 * @throws SocketTimeoutException when no response came within {@code timeout}
	 * @throws IOException when the process ended before it answered, or the call was
	 * given up
	 */
	JsonNode call(JsonNode request, Duration timeout, Consumer<UpstreamCall> onDispatch, Runnable onGivenUp)
			throws IOException {
		String key = request.path("id").toString();
		CompletableFuture<JsonNode> reply = new CompletableFuture<>();
		if (this.pending.putIfAbsent(key, reply) != null) {
			throw new DuplicateRequestIdException();
		}
		try {
			if (!send(request)) {
				throw new ProcessEndedException();
			}
			onDispatch.accept(() -> {
				if (reply.completeExceptionally(new IOException("the call was given up"))) {
					onGivenUp.run();
				}
			});
			return await(reply, timeout);
		}
		finally {
			this.pending.remove(key, reply);
		}
	}

	/**
	 * Writes one message.
	 * @return {@code false} when the process has ended (or has not started)
	 */
	boolean send(JsonNode message) {
		StdioProcess running = this.process;
		touch();
		return running != null && this.end.get() == null && running.send(message);
	}

	/** Records traffic of the process's sessions that did not pass through it. */
	void touch() {
		this.lastActivity = this.clock.nanoTime();
	}

	/** Nanoseconds of the gateway clock since the last request or message. */
	long idleNanos() {
		return this.clock.nanoTime() - this.lastActivity;
	}

	/** Records why the gateway stops the process; the first cause given stays. */
	void stopping(String cause) {
		this.stopCause.compareAndSet(null, cause);
	}

	/**
	 * Why the process ended, as audited and counted: the gateway's cause when it stopped
	 * it, otherwise how it ended ({@code exited}, {@code line_too_long},
	 * {@code not_json}).
	 */
	String endCause() {
		String cause = this.stopCause.get();
		StdioEnd ended = this.end.get();
		if (cause != null) {
			return cause;
		}
		return (ended != null) ? ended.reason().name().toLowerCase(Locale.ROOT) : "running";
	}

	/** How the process ended, {@code null} while it runs. */
	@Nullable StdioEnd end() {
		return this.end.get();
	}

	@Override
	public void onMessage(JsonNode message) {
		touch();
		if (message.has("method")) {
			this.ownMessages.accept(message);
			return;
		}
		CompletableFuture<JsonNode> reply = this.pending.get(message.path("id").toString());
		if (reply != null) {
			reply.complete(message);
		}
	}

	@Override
	public void ended(StdioEnd end) {
		if (this.end.compareAndSet(null, end)) {
			// Its sessions are gone before a call waiting on it fails: the client's next
			// request finds no session (404), not a process that is still being removed.
			this.onEnd.accept(this);
			IOException ended = new IOException("the stdio server's process ended (" + end.reason() + ")");
			this.pending.values().forEach((reply) -> reply.completeExceptionally(ended));
		}
	}

	private static JsonNode await(CompletableFuture<JsonNode> reply, Duration timeout) throws IOException {
		try {
			return reply.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			throw new SocketTimeoutException("the stdio server did not answer within " + timeout);
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof IOException io) ? io : new IOException(ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new InterruptedIOException("interrupted while waiting for the stdio server");
		}
	}

	/** A request not sent because the process had ended: nothing of it reached one. */
	static final class ProcessEndedException extends IOException {

		ProcessEndedException() {
			super("the stdio server's process has ended");
		}

	}

	/** A request whose id is the id of a request still in flight on the same process. */
	static final class DuplicateRequestIdException extends IOException {

		DuplicateRequestIdException() {
			super("a request with this id is in flight on the session");
		}

	}

}
