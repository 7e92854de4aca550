package io.github.mcpgateway.stdio;

import java.io.IOException;
import java.time.Duration;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.transport.UpstreamCall;

/**
 * One client session of a stdio server (ADR 0023): either the only session of its own
 * process ({@link ProcessSession}), or one of the sessions of a server's shared process
 * ({@link SharedSession}). What the transport does with a session's requests.
 */
sealed interface StdioSession permits ProcessSession, SharedSession {

	/** The session id the client uses. */
	String id();

	/** The server, as the policy declared it when the session began. */
	McpServerPolicy server();

	/** The session's human, {@code null} on a server without a verified principal. */
	@Nullable String human();

	/** Whether {@code server} and {@code human} are those the session began with. */
	default boolean belongsTo(McpServerPolicy server, @Nullable String human) {
		return server().identityKey().equals(server.identityKey()) && java.util.Objects.equals(human(), human);
	}

	/** Nanoseconds of the gateway clock since the session's last traffic. */
	long idleNanos();

	/** The server's answer to the client's {@code initialize}. */
	JsonNode initialize(JsonNode request, Duration timeout, Consumer<UpstreamCall> onDispatch) throws IOException;

	/**
	 * Sends a request and waits for the server's response, with the client's id.
	 * @throws StdioChild.DuplicateRequestIdException when a request of the session with
	 * the same id is in flight
	 * @throws java.net.SocketTimeoutException when no response came within
	 * {@code timeout}
	 * @throws IOException when the process ended first, or the call was given up
	 */
	JsonNode call(JsonNode request, Duration timeout, Consumer<UpstreamCall> onDispatch) throws IOException;

	/**
	 * Passes on a message that gets no response (a notification, or the client's response
	 * to a request of the server's own).
	 * @return {@code false} when the session's process has ended
	 */
	boolean tell(JsonNode message);

	/**
	 * The session's {@code GET} stream.
	 * @return {@code null} when one is already open
	 */
	@Nullable SessionEventStream openStream();

}
