package io.github.mcpgateway.stdio;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.transport.UpstreamCall;

/**
 * A client session on a server's {@link SharedProcess}: its {@code initialize} is
 * answered with the result the process gave the gateway, its requests go through the
 * process under ids of the gateway's own, and its stream carries the process's
 * notifications. The client's {@code notifications/cancelled} reaches the process with
 * the gateway's id; its other notifications and its responses do not (the process's
 * requests are the gateway's to answer).
 */
final class SharedSession implements StdioSession {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final String id;

	private final @Nullable String human;

	private final SharedProcess process;

	private final GatewayClock clock;

	private final ClientStream stream = new ClientStream();

	/** The client's ids of its requests in flight, and the gateway's for each. */
	private final ConcurrentMap<String, Long> inFlight = new ConcurrentHashMap<>();

	private volatile long lastActivity;

	private volatile boolean closed;

	SharedSession(String id, @Nullable String human, SharedProcess process, GatewayClock clock) {
		this.id = id;
		this.human = human;
		this.process = process;
		this.clock = clock;
		this.lastActivity = clock.nanoTime();
	}

	@Override
	public String id() {
		return this.id;
	}

	@Override
	public McpServerPolicy server() {
		return this.process.server();
	}

	@Override
	public @Nullable String human() {
		return this.human;
	}

	SharedProcess process() {
		return this.process;
	}

	ClientStream stream() {
		return this.stream;
	}

	@Override
	public long idleNanos() {
		return this.clock.nanoTime() - this.lastActivity;
	}

	@Override
	public JsonNode initialize(JsonNode request, Duration timeout, Consumer<UpstreamCall> onDispatch) {
		touch();
		ObjectNode reply = JSON.createObjectNode().put("jsonrpc", "2.0");
		reply.set("id", request.get("id"));
		reply.set("result", this.process.initializeResult());
		return reply;
	}

	@Override
	public JsonNode call(JsonNode request, Duration timeout, Consumer<UpstreamCall> onDispatch) throws IOException {
		touch();
		return this.process.call(this, request, timeout, onDispatch, false);
	}

	@Override
	public boolean tell(JsonNode message) {
		touch();
		if (this.closed || this.process.child().end() != null) {
			return false;
		}
		if ("notifications/cancelled".equals(message.path("method").asString(""))) {
			Long id = this.inFlight.get(message.path("params").path("requestId").toString());
			if (id != null) {
				this.process.cancel(id, message.path("params").path("reason").asString("cancelled by the client"));
			}
		}
		return true;
	}

	@Override
	public @Nullable SessionEventStream openStream() {
		return this.stream.open(() -> this.closed || this.process.child().end() != null, this::touch);
	}

	/** Records a request of the client in flight; {@code false} if its id already is. */
	boolean began(String clientId, long id) {
		return this.inFlight.putIfAbsent(clientId, id) == null;
	}

	void ended(String clientId) {
		this.inFlight.remove(clientId);
	}

	/** Ends the session (its process goes on): its stream ends, its requests are 404. */
	void close() {
		this.closed = true;
	}

	private void touch() {
		this.lastActivity = this.clock.nanoTime();
		this.process.child().touch();
	}

}
