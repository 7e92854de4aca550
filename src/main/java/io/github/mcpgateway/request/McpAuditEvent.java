package io.github.mcpgateway.request;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.redact.ShownText;
import io.github.mcpgateway.request.McpRequestContext.Decision;

/**
 * One governed MCP request, as the audit log and the meters see it. Published once per
 * request, after the response is complete. Carries identities and decisions, never the
 * token, the tool arguments or the result. Every string a caller chooses (the identity
 * claims, the session id, the method, the tool) is {@link ShownText#bounded bounded}
 * here, where the event is made, so that no observer writes a megabyte tool name.
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
		@Nullable String taskIdHash, PipelineObserver.@Nullable TraceIds trace) {

	/**
	 * The event of a request that ended at {@code time}, from its context: the one place
	 * an audit event is made.
	 * @param httpMethod the request's HTTP method, the event's method when it has no
	 * JSON-RPC message
	 * @param status the HTTP status sent
	 * @param elapsedNanos time since the request entered the pipeline
	 * @param trace the request's trace and span ids, {@code null} when not traced
	 */
	static McpAuditEvent of(McpRequestContext context, String httpMethod, int status, Instant time, long elapsedNanos,
			PipelineObserver.@Nullable TraceIds trace) {
		McpPrincipal principal = context.principal();
		JsonRpcMessage message = context.message();
		String method = (message == null) ? httpMethod : (message.method() != null) ? message.method() : "response";
		Decision decision = context.decision();
		if (decision == Decision.PENDING) {
			// Nothing after the stages refused or failed: what the upstream answered.
			decision = (status < 400) ? Decision.ALLOWED : Decision.UPSTREAM_ERROR;
		}
		McpServerPolicy server = context.server();
		McpRequestContext.Keyed keyed = context.idempotency();
		McpRequestContext.Credential credential = context.upstreamAuth();
		McpRequestContext.Task task = context.task();
		String tool = (message != null && message.toolName() != null) ? message.toolName()
				: (task != null) ? task.tool() : null;
		return new McpAuditEvent(time, (principal != null) ? ShownText.bounded(principal.human()) : null,
				(principal != null) ? ShownText.bounded(principal.agent()) : null,
				(principal != null) ? ShownText.bounded(principal.team()) : null,
				ShownText.bounded(context.sessionId()), server.namespace(), server.name(), server.uid(),
				ShownText.bounded(method), ShownText.bounded(tool), decision.tag(), context.errorCode(),
				context.reason(), status, Duration.ofNanos(elapsedNanos), context.dispatched(),
				(keyed != null) ? keyed.outcome().tag() : null, (keyed != null) ? keyed.keyHash() : null,
				(credential != null) ? credential.mode().tag() : null,
				(credential != null) ? credential.outcome().tag() : null, (task != null) ? task.outcome().tag() : null,
				(task != null) ? task.taskIdHash() : null, trace);
	}

}
