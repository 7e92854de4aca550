package io.github.mcpgateway.stdio;

import java.io.IOException;
import java.time.Duration;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonReadLimits;
import io.github.mcpgateway.jsonrpc.MalformedJsonException;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import io.github.mcpgateway.policy.StdioUpstream;
import io.github.mcpgateway.transport.McpRevisions;

/**
 * The Streamable HTTP transport (2025-03-26 to 2025-11-25) served over stdio processes,
 * in the gateway's process: the proxy sends a stdio server's requests here instead of to
 * a socket, so that every stage before it treats the server as an HTTP one (ADR 0023).
 *
 * <p>
 * What it answers, as the TypeScript SDK's own server does:
 * <ul>
 * <li>{@code initialize} without a session starts a process ({@link StdioSessions},
 * within the caps), forwards the request and answers the process's result with a new
 * {@code Mcp-Session-Id}; an error result ends the process again;</li>
 * <li>any other request of a session: the process's response, as one JSON reply
 * ({@code application/json}), so that a keyed call is replayable under the
 * Idempotency-Key contract; the process's own messages meanwhile go to the session's
 * {@code GET} stream;</li>
 * <li>a notification, or a response to the process's own request: 202;</li>
 * <li>{@code GET}: the session's stream (one at a time; a second is 409); {@code DELETE}:
 * ends the session (200);</li>
 * <li>a session id this replica does not run (never issued, ended, crashed): 404, which
 * the client answers with a new {@code initialize}; a request without one but
 * {@code initialize}: 400.</li>
 * </ul>
 * Failures are thrown, as an HTTP client throws them, for the upstream guard to classify:
 * a process that cannot start is a refused connection (not dispatched), no answer within
 * the timeout a read timeout, a process that ends during a call a broken connection (the
 * outcome is unknown).
 */
public final class StdioTransport {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final StdioSessions sessions;

	private final Duration replyTimeout;

	private final StrictJsonReader reader;

	private final GatewayErrorRenderer errors;

	/**
	 * @param replyTimeout how long a request waits for the process's response (the
	 * proxy's first-byte timeout: the response is the first byte)
	 * @param maxBodyBytes the largest request body (the gateway's request cap)
	 * @param errors the gateway's error shape, which the transport's own answers take
	 */
	public StdioTransport(StdioSessions sessions, Duration replyTimeout, long maxBodyBytes,
			GatewayErrorRenderer errors) {
		this.sessions = sessions;
		this.replyTimeout = replyTimeout;
		this.reader = new StrictJsonReader(JsonReadLimits.DEFAULTS, maxBodyBytes);
		this.errors = errors;
	}

	/** Serves one HTTP request of a stdio server's transport. */
	public StdioResponse exchange(StdioRequest request) throws IOException {
		if (request.sessionId() == null) {
			return withoutSession(request);
		}
		StdioSession session = this.sessions.find(request.sessionId());
		if (session == null || !session.belongsTo(request.server(), request.human())) {
			return error(GatewayErrors.SESSION_NOT_FOUND, idOf(request));
		}
		return switch (request.method()) {
			case "POST" -> post(session, request);
			case "GET" -> stream(session, request);
			case "DELETE" -> {
				this.sessions.end(session, "deleted");
				yield StdioResponse.empty(200);
			}
			default -> error(GatewayErrors.METHOD_NOT_ALLOWED, null);
		};
	}

	private StdioResponse withoutSession(StdioRequest request) throws IOException {
		JsonNode message = "POST".equals(request.method()) ? read(request.body()) : null;
		if (message != null && isRequest(message) && "initialize".equals(message.path("method").asString(""))) {
			return initialize(request, message);
		}
		StdioUpstream stdio = request.server().stdio();
		if (message != null && stdio != null && stdio.process() == StdioUpstream.Process.SHARED
				&& McpRevisions.isStateless(request.protocolVersion())) {
			return stateless(request, message);
		}
		return error(GatewayErrors.SESSION_ID_MISSING, (message != null) ? message.get("id") : null);
	}

	private StdioResponse initialize(StdioRequest request, JsonNode message) throws IOException {
		StdioSession session = this.sessions.start(request.server(), request.human());
		JsonNode reply;
		try {
			reply = session.initialize(message, request.server().stdio().startTimeout(), request.onDispatch());
		}
		catch (IOException ex) {
			this.sessions.end(session, "start_failed");
			throw (ex instanceof StdioChild.ProcessEndedException)
					? new java.net.ConnectException("the stdio server ended before its initialize") : ex;
		}
		if (reply.has("error")) {
			this.sessions.end(session, "initialize_refused");
			return StdioResponse.json(200, JSON.writeValueAsBytes(reply), null);
		}
		return StdioResponse.json(200, JSON.writeValueAsBytes(reply), session.id());
	}

	/**
	 * A 2026-07-28 request, which has no session, on a shared process: a request goes
	 * through it (the client closing its stream cancels it, as the revision says), a
	 * notification has nothing to reach.
	 */
	private StdioResponse stateless(StdioRequest request, JsonNode message) throws IOException {
		if (!isRequest(message)) {
			return StdioResponse.empty(202);
		}
		SharedProcess process = this.sessions.sharedProcess(request.server());
		try {
			JsonNode reply = process.call(null, message, this.replyTimeout, request.onDispatch(), true);
			return StdioResponse.json(200, JSON.writeValueAsBytes(reply), null);
		}
		catch (StdioChild.ProcessEndedException ex) {
			// Nothing was sent: as a refused connection, which the client may retry.
			throw new java.net.ConnectException("the stdio server's shared process has ended");
		}
	}

	private StdioResponse post(StdioSession session, StdioRequest request) throws IOException {
		JsonNode message = read(request.body());
		if (message == null) {
			return error(GatewayErrors.INVALID_REQUEST, null);
		}
		if (!isRequest(message)) {
			return session.tell(message) ? StdioResponse.empty(202) : error(GatewayErrors.SESSION_NOT_FOUND, null);
		}
		JsonNode id = message.get("id");
		if ("initialize".equals(message.path("method").asString(""))) {
			return error(GatewayErrors.INVALID_REQUEST, id);
		}
		try {
			JsonNode reply = session.call(message, this.replyTimeout, request.onDispatch());
			return StdioResponse.json(200, JSON.writeValueAsBytes(reply), null);
		}
		catch (StdioChild.DuplicateRequestIdException ex) {
			return error(GatewayErrors.INVALID_REQUEST, id);
		}
		catch (StdioChild.ProcessEndedException ex) {
			return error(GatewayErrors.SESSION_NOT_FOUND, id);
		}
	}

	private StdioResponse stream(StdioSession session, StdioRequest request) {
		SessionEventStream stream = session.openStream();
		if (stream == null) {
			return error(GatewayErrors.STREAM_ALREADY_OPEN, null);
		}
		request.onDispatch().accept(stream::close);
		return new StdioResponse(200, "text/event-stream", null, stream);
	}

	/** The message in {@code body}, {@code null} when it is not one JSON object. */
	private @Nullable JsonNode read(byte[] body) {
		try {
			JsonNode message = this.reader.read(body);
			return message.isObject() ? message : null;
		}
		catch (MalformedJsonException ex) {
			return null;
		}
	}

	private static boolean isRequest(JsonNode message) {
		return message.has("method") && message.has("id");
	}

	/** The id of a POST's request, when its body is one. */
	private @Nullable JsonNode idOf(StdioRequest request) {
		JsonNode message = "POST".equals(request.method()) ? read(request.body()) : null;
		return (message != null) ? message.get("id") : null;
	}

	/**
	 * The transport's own answer, in the gateway's error shape: it is the gateway that
	 * answers, as far as the client can tell.
	 */
	private StdioResponse error(GatewayError error, @Nullable JsonNode id) {
		return StdioResponse.json(error.status().value(), this.errors.jsonRpcBody(error, id), null);
	}

}
