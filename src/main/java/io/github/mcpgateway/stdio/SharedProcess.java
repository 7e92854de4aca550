package io.github.mcpgateway.stdio;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.transport.UpstreamCall;

/**
 * The one process of a stdio server whose policy says {@code process: shared} (ADR 0023):
 * the gateway initializes it once, as a client of its own that offers no capabilities,
 * and every session of the server, and every 2026-07-28 request without one, uses it.
 *
 * <p>
 * Callers' JSON-RPC ids are kept apart: each request reaches the process with an id of
 * the gateway's own, and its response goes back with the caller's; a progress token is
 * replaced the same way, so that a progress notification reaches the session that asked
 * for it. Other notifications of the process (list changes, log messages) go to every
 * session's stream. A request of the process's own gets the gateway's answer: a
 * {@code ping} its result, anything else (sampling, elicitation, roots: which session
 * would answer?) an error, since no session's client stands behind the process.
 */
final class SharedProcess {

	/** The revision the gateway asks for in its {@code initialize}. */
	static final String REVISION = "2025-11-25";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final StdioChild child;

	private final AtomicLong ids = new AtomicLong();

	private final ConcurrentMap<String, SharedSession> sessions = new ConcurrentHashMap<>();

	private final ConcurrentMap<String, Progress> progress = new ConcurrentHashMap<>();

	private final CompletableFuture<JsonNode> initialized = new CompletableFuture<>();

	/**
	 * @param onEnd told once, from the process's reader thread, when it has ended
	 */
	SharedProcess(McpServerPolicy server, GatewayClock clock, Consumer<SharedProcess> onEnd) {
		this.child = new StdioChild(server, clock, this::fromProcess, (child) -> onEnd.accept(this));
	}

	StdioChild child() {
		return this.child;
	}

	McpServerPolicy server() {
		return this.child.server();
	}

	/**
	 * Initializes the started process as the gateway's own client: {@code initialize},
	 * then {@code notifications/initialized}.
	 * @throws ConnectException when the server answers with an error
	 * @throws IOException when it does not answer within {@code timeout}, or ends
	 */
	void initialize(Duration timeout) throws IOException {
		ObjectNode request = request("initialize");
		ObjectNode params = request.putObject("params");
		params.put("protocolVersion", REVISION);
		params.putObject("capabilities");
		params.putObject("clientInfo").put("name", "mcp-gateway").put("version", "1");
		JsonNode reply = this.child.call(request, timeout, (call) -> {
		}, () -> {
		});
		if (!reply.path("result").isObject()) {
			throw new ConnectException("the stdio server refused the gateway's initialize");
		}
		ObjectNode notification = JSON.createObjectNode()
			.put("jsonrpc", "2.0")
			.put("method", "notifications/initialized");
		this.child.send(notification);
		this.initialized.complete(reply.get("result"));
	}

	/** Marks the process as failed to initialize: whoever waits for it is told. */
	void failed(IOException failure) {
		this.initialized.completeExceptionally(failure);
	}

	/** Waits until the process is initialized (by another caller). */
	void awaitInitialized(Duration timeout) throws IOException {
		try {
			this.initialized.get(timeout.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
		}
		catch (java.util.concurrent.ExecutionException ex) {
			throw new ConnectException("the stdio server could not be started");
		}
		catch (java.util.concurrent.TimeoutException ex) {
			throw new java.net.SocketTimeoutException("the stdio server did not initialize within " + timeout);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new java.io.InterruptedIOException("interrupted while waiting for the stdio server");
		}
	}

	/** The result the process gave the gateway's {@code initialize}. */
	JsonNode initializeResult() {
		return this.initialized.getNow(JSON.createObjectNode());
	}

	void add(SharedSession session) {
		this.sessions.put(session.id(), session);
	}

	void remove(SharedSession session) {
		this.sessions.remove(session.id(), session);
	}

	Collection<SharedSession> sessions() {
		return this.sessions.values();
	}

	/**
	 * Sends a caller's request under an id of the gateway's own and answers with the
	 * caller's.
	 * @param session the caller's session, {@code null} for a request without one
	 * (2026-07-28)
	 * @param cancelWhenGivenUp whether the caller leaving cancels the request
	 * ({@code notifications/cancelled}): so under 2026-07-28, where closing the stream is
	 * the cancellation, and not under 2025
	 */
	JsonNode call(@Nullable SharedSession session, JsonNode request, Duration timeout,
			Consumer<UpstreamCall> onDispatch, boolean cancelWhenGivenUp) throws IOException {
		long id = this.ids.incrementAndGet();
		ObjectNode forwarded = (ObjectNode) request.deepCopy();
		forwarded.put("id", id);
		String token = replaceProgressToken(forwarded, session, id);
		String clientId = request.path("id").toString();
		if (session != null && !session.began(clientId, id)) {
			throw new StdioChild.DuplicateRequestIdException();
		}
		try {
			JsonNode reply = this.child.call(forwarded, timeout, onDispatch,
					cancelWhenGivenUp ? () -> cancel(id, "the client closed the stream") : () -> {
					});
			((ObjectNode) reply).set("id", request.get("id"));
			return reply;
		}
		finally {
			if (token != null) {
				this.progress.remove(token);
			}
			if (session != null) {
				session.ended(clientId);
			}
		}
	}

	/** Passes on the client's cancellation of one of its requests in flight. */
	void cancel(long id, String reason) {
		ObjectNode notification = JSON.createObjectNode()
			.put("jsonrpc", "2.0")
			.put("method", "notifications/cancelled");
		notification.putObject("params").put("requestId", id).put("reason", reason);
		this.child.send(notification);
	}

	private @Nullable String replaceProgressToken(ObjectNode forwarded, @Nullable SharedSession session, long id) {
		JsonNode meta = forwarded.path("params").path("_meta");
		if (session == null || !meta.isObject() || !meta.has("progressToken")) {
			return null;
		}
		String token = "gateway-" + id;
		this.progress.put(token, new Progress(session, meta.get("progressToken")));
		((ObjectNode) meta).put("progressToken", token);
		return token;
	}

	private void fromProcess(JsonNode message) {
		String method = message.path("method").asString("");
		if (message.has("id")) {
			this.child.send(answer(message.get("id"), method));
			return;
		}
		if ("notifications/progress".equals(method)) {
			Progress route = this.progress.get(message.path("params").path("progressToken").asString(""));
			if (route != null) {
				ObjectNode copy = (ObjectNode) message.deepCopy();
				((ObjectNode) copy.get("params")).set("progressToken", route.token());
				route.session().stream().offer(copy);
			}
			return;
		}
		this.sessions.values().forEach((session) -> session.stream().offer(message));
	}

	private static JsonNode answer(JsonNode id, String method) {
		ObjectNode response = JSON.createObjectNode().put("jsonrpc", "2.0");
		response.set("id", id);
		if ("ping".equals(method)) {
			response.putObject("result");
			return response;
		}
		response.putObject("error")
			.put("code", -32601)
			.put("message", "The gateway's clients of a shared stdio process offer no " + method);
		return response;
	}

	private ObjectNode request(String method) {
		return JSON.createObjectNode()
			.put("jsonrpc", "2.0")
			.put("id", this.ids.incrementAndGet())
			.put("method", method);
	}

	/** Where a progress token the gateway put in a request came from. */
	private record Progress(SharedSession session, JsonNode token) {
	}

}
