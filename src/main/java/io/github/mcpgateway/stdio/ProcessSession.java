package io.github.mcpgateway.stdio;

import java.io.IOException;
import java.time.Duration;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.transport.UpstreamCall;

/**
 * A client session with a process of its own ({@code process: per-session}, the default):
 * the client's JSON-RPC ids reach the process unchanged, since nobody else writes to it,
 * and what the process sends of its own goes to the session's {@link ClientStream}. A
 * request of the process's own that the full queue drops is answered to the process with
 * an error, so that the server does not wait for ever.
 */
final class ProcessSession implements StdioSession {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final String id;

	private final @Nullable String human;

	private final StdioChild child;

	private final ClientStream stream = new ClientStream();

	/**
	 * @param onEnd told once, from the process's reader thread, when it has ended
	 */
	ProcessSession(String id, McpServerPolicy server, @Nullable String human, GatewayClock clock,
			Consumer<ProcessSession> onEnd) {
		this.id = id;
		this.human = human;
		this.child = new StdioChild(server, clock, this::fromProcess, (child) -> onEnd.accept(this));
	}

	@Override
	public String id() {
		return this.id;
	}

	@Override
	public McpServerPolicy server() {
		return this.child.server();
	}

	@Override
	public @Nullable String human() {
		return this.human;
	}

	StdioChild child() {
		return this.child;
	}

	ClientStream stream() {
		return this.stream;
	}

	@Override
	public long idleNanos() {
		return this.child.idleNanos();
	}

	@Override
	public JsonNode initialize(JsonNode request, Duration timeout, Consumer<UpstreamCall> onDispatch)
			throws IOException {
		return call(request, timeout, onDispatch);
	}

	@Override
	public JsonNode call(JsonNode request, Duration timeout, Consumer<UpstreamCall> onDispatch) throws IOException {
		// A 2025 revision: the client leaving is not a cancellation.
		return this.child.call(request, timeout, onDispatch, () -> {
		});
	}

	@Override
	public boolean tell(JsonNode message) {
		return this.child.send(message);
	}

	@Override
	public @Nullable SessionEventStream openStream() {
		return this.stream.open(() -> this.child.end() != null, this.child::touch);
	}

	private void fromProcess(JsonNode message) {
		if (!this.stream.offer(message) && message.has("id")) {
			this.child.send(undeliverable(message.get("id")));
		}
	}

	static JsonNode undeliverable(JsonNode id) {
		ObjectNode response = JSON.createObjectNode();
		response.put("jsonrpc", "2.0");
		response.set("id", id);
		ObjectNode error = response.putObject("error");
		error.put("code", -32603);
		error.put("message", "The gateway could not deliver the request: the client's stream is full");
		return response;
	}

}
