package io.github.mcpgateway.stdio;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.transport.UpstreamCall;

/**
 * One client session of a stdio server and the process that serves it alone (ADR 0023):
 * the client's JSON-RPC ids reach the process unchanged, since nobody else writes to it.
 *
 * <p>
 * A request the client sends waits here for the process's response with the same id. What
 * the process sends of its own (requests such as {@code roots/list} or
 * {@code sampling/createMessage}, and notifications) goes to one bounded queue that the
 * session's {@code GET} stream drains ({@link #openStream}); while no stream is open the
 * queue keeps them, so a server that speaks right after {@code initialize} loses nothing
 * to a client that opens its stream a moment later. When the queue is full a message is
 * dropped (counted in {@link #dropped}); a dropped request is answered to the process
 * with an error, so that the server does not wait for ever.
 *
 * <p>
 * Thread-safe: the process's reader thread calls {@link StdioListener}, request threads
 * call the rest.
 */
final class StdioSession implements StdioListener {

	/** How many messages of the process's own wait for the client's stream. */
	static final int QUEUE_CAPACITY = 1000;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final String id;

	private final McpServerPolicy server;

	private final @Nullable String human;

	private final GatewayClock clock;

	private final Consumer<StdioSession> onEnd;

	private final ConcurrentMap<String, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();

	private final BlockingQueue<byte[]> outbound = new LinkedBlockingQueue<>(QUEUE_CAPACITY);

	private final AtomicBoolean streamOpen = new AtomicBoolean();

	private final AtomicReference<@Nullable StdioEnd> end = new AtomicReference<>();

	private final AtomicReference<@Nullable String> stopCause = new AtomicReference<>();

	private volatile long lastActivity;

	private volatile @Nullable StdioProcess process;

	private volatile long dropped;

	/**
	 * @param id the session id the client uses
	 * @param server the server, as the policy declared it when the session began
	 * @param human the human the session belongs to, {@code null} on a server without a
	 * verified principal
	 * @param onEnd told once, from the reader thread, when the process has ended
	 */
	StdioSession(String id, McpServerPolicy server, @Nullable String human, GatewayClock clock,
			Consumer<StdioSession> onEnd) {
		this.id = id;
		this.server = server;
		this.human = human;
		this.clock = clock;
		this.onEnd = onEnd;
		this.lastActivity = clock.nanoTime();
	}

	String id() {
		return this.id;
	}

	McpServerPolicy server() {
		return this.server;
	}

	@Nullable String human() {
		return this.human;
	}

	void started(StdioProcess process) {
		this.process = process;
	}

	@Nullable StdioProcess process() {
		return this.process;
	}

	/** Whether {@code server} and {@code human} are those the session began with. */
	boolean belongsTo(McpServerPolicy server, @Nullable String human) {
		return this.server.identityKey().equals(server.identityKey()) && java.util.Objects.equals(this.human, human);
	}

	/** Records why the gateway ends the session; the first cause given stays. */
	void stopping(String cause) {
		this.stopCause.compareAndSet(null, cause);
	}

	/**
	 * Why the session ended, as audited and counted: the gateway's cause when it ended
	 * it, otherwise how the process ended ({@code exited}, {@code line_too_long},
	 * {@code not_json}).
	 */
	String endCause() {
		String cause = this.stopCause.get();
		StdioEnd ended = this.end.get();
		if (cause != null) {
			return cause;
		}
		return (ended != null) ? ended.reason().name().toLowerCase(java.util.Locale.ROOT) : "running";
	}

	/** How the process ended, {@code null} while it runs. */
	@Nullable StdioEnd end() {
		return this.end.get();
	}

	/** Nanoseconds of the gateway clock since the last request or message. */
	long idleNanos() {
		return this.clock.nanoTime() - this.lastActivity;
	}

	/**
	 * Messages of the process's own dropped because the client's stream did not take
	 * them.
	 */
	long dropped() {
		return this.dropped;
	}

	/**
	 * Sends a request and waits for the process's response to it.
	 * @param onDispatch receives the call once the request is written, so that another
	 * thread can give up on it (the reply is then dropped when it comes)
	 * @throws DuplicateRequestIdException when a request with the same id is in flight
	 * @throws SocketTimeoutException when no response came within {@code timeout}
	 * @throws IOException when the process ended first, or the call was given up
	 */
	JsonNode call(JsonNode request, Duration timeout, Consumer<UpstreamCall> onDispatch) throws IOException {
		String key = request.path("id").toString();
		CompletableFuture<JsonNode> reply = new CompletableFuture<>();
		if (this.pending.putIfAbsent(key, reply) != null) {
			throw new DuplicateRequestIdException();
		}
		try {
			if (!send(request)) {
				throw new IOException("the stdio server's process has ended");
			}
			onDispatch.accept(() -> reply.completeExceptionally(new IOException("the call was given up")));
			return await(reply, timeout);
		}
		finally {
			this.pending.remove(key, reply);
		}
	}

	/**
	 * Writes a message that gets no response (a notification, or the client's response to
	 * a request of the process's own).
	 * @return {@code false} when the process has ended
	 */
	boolean tell(JsonNode message) {
		return send(message);
	}

	/**
	 * The session's {@code GET} stream: the process's own messages as
	 * {@code text/event-stream}, until the process ends or the stream is closed.
	 * @return {@code null} when a stream of the session is already open
	 */
	@Nullable SessionEventStream openStream() {
		if (!this.streamOpen.compareAndSet(false, true)) {
			return null;
		}
		touch();
		return new SessionEventStream(this.outbound, () -> this.end.get() != null, () -> this.streamOpen.set(false),
				this::touch);
	}

	@Override
	public void onMessage(JsonNode message) {
		touch();
		if (!message.has("method")) {
			CompletableFuture<JsonNode> reply = this.pending.get(message.path("id").toString());
			if (reply != null) {
				reply.complete(message);
			}
			return;
		}
		if (!this.outbound.offer(JSON.writeValueAsBytes(message))) {
			this.dropped++;
			if (message.has("id")) {
				send(undeliverable(message.get("id")));
			}
		}
	}

	@Override
	public void ended(StdioEnd end) {
		if (this.end.compareAndSet(null, end)) {
			IOException ended = new IOException("the stdio server's process ended (" + end.reason() + ")");
			this.pending.values().forEach((reply) -> reply.completeExceptionally(ended));
			this.onEnd.accept(this);
		}
	}

	private boolean send(JsonNode message) {
		StdioProcess running = this.process;
		touch();
		return running != null && this.end.get() == null && running.send(message);
	}

	private void touch() {
		this.lastActivity = this.clock.nanoTime();
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
			throw new java.io.InterruptedIOException("interrupted while waiting for the stdio server");
		}
	}

	private static JsonNode undeliverable(JsonNode id) {
		ObjectNode response = JSON.createObjectNode();
		response.put("jsonrpc", "2.0");
		response.set("id", id);
		ObjectNode error = response.putObject("error");
		error.put("code", -32603);
		error.put("message", "The gateway could not deliver the request: the client's stream is full");
		return response;
	}

	/** A request whose id is the id of a request of the same session still in flight. */
	static final class DuplicateRequestIdException extends IOException {

		DuplicateRequestIdException() {
			super("a request with this id is in flight on the session");
		}

	}

}
