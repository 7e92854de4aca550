package io.github.mcpgateway.request;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * One governed MCP request, as the audit log and the meters see it. Published once per
 * request, after the response is complete. Carries identities and decisions, never the
 * token, the tool arguments or the result.
 *
 * @param time when the request ended
 * @param human the verified human, or {@code null}
 * @param agent the verified agent, or {@code null}
 * @param team the verified team, or {@code null}
 * @param sessionId the MCP session id the client sent, or {@code null}
 * @param namespace server namespace
 * @param server server name
 * @param serverUid server UID from the policy, or {@code null}
 * @param method JSON-RPC method, or the HTTP method for GET and DELETE
 * @param tool tool name of a {@code tools/call}, the tool that created the task of a task
 * request, or {@code null}
 * @param decision the gateway's decision, lower case
 * @param errorCode the gateway error code answered or recorded, or {@code null}
 * @param reason why, where the error code alone does not say (the kind of
 * {@code session_not_found}), or {@code null}
 * @param status the HTTP status sent to the client
 * @param duration time spent in the gateway, upstream included
 * @param dispatched whether the request reached the upstream client
 * @param idempotency the Idempotency-Key outcome ({@code first}, {@code replay}, ...), or
 * {@code null} for an unkeyed request
 * @param idempotencyKeyHash first 16 hex characters of the scoped key hash, never the key
 * @param upstreamAuth the server's upstream credential mode, or {@code null} when the
 * upstream receives none
 * @param upstreamAuthOutcome how that credential was obtained ({@code cached},
 * {@code fetched}, {@code refused}, {@code unavailable}), never the token
 * @param task how the task stage handled the request ({@code created}, {@code allowed},
 * {@code not_found}, ...), or {@code null} when it did not
 * @param taskIdHash first 16 hex characters of the task id's SHA-256, never the id (an
 * upstream may treat task ids as bearer tokens)
 */
public record McpAuditEvent(Instant time, @Nullable String human, @Nullable String agent, @Nullable String team,
		@Nullable String sessionId, String namespace, String server, @Nullable String serverUid, String method,
		@Nullable String tool, String decision, @Nullable String errorCode, @Nullable String reason, int status,
		Duration duration, boolean dispatched, @Nullable String idempotency, @Nullable String idempotencyKeyHash,
		@Nullable String upstreamAuth, @Nullable String upstreamAuthOutcome, @Nullable String task,
		@Nullable String taskIdHash) {
}
