package io.github.mcpgateway.request;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.redact.ShownText;

/**
 * One governed MCP request, as the audit log and the meters see it. Published once per
 * request, after the response is complete. Carries identities and decisions, never the
 * token, the tool arguments or the result. Every string a caller chooses (the identity
 * claims, the session id, the method, the tool) is {@link ShownText#bounded bounded}
 * here, where the event is made, so that no observer writes a megabyte tool name. What a
 * capability adds (the Idempotency-Key outcome, the task, the upstream credential) comes
 * as its typed {@link AuditContribution}.
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
 * @param tool tool name of a {@code tools/call}, the tool a contribution names (the one
 * that created the task of a task request), or {@code null}
 * @param decision the gateway's decision
 * @param errorCode the gateway error code answered or recorded, or {@code null}
 * @param reason why, where the error code alone does not say (the kind of
 * {@code session_not_found}), or {@code null}
 * @param status the HTTP status sent to the client
 * @param duration time spent in the gateway, upstream included
 * @param dispatched whether the request reached the upstream client
 * @param contributions what the capabilities that handled the request add, in their order
 * @param trace the request's trace and span ids, {@code null} when not traced
 */
public record McpAuditEvent(Instant time, @Nullable String human, @Nullable String agent, @Nullable String team,
		@Nullable String sessionId, String namespace, String server, @Nullable String serverUid, String method,
		@Nullable String tool, Decision decision, @Nullable String errorCode, @Nullable RefusalReason reason,
		int status, Duration duration, boolean dispatched, List<AuditContribution> contributions,
		PipelineObserver.@Nullable TraceIds trace) {

	public McpAuditEvent {
		contributions = List.copyOf(contributions);
	}

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
		List<AuditContribution> contributions = context.slots.contributions();
		return new McpAuditEvent(time, (principal != null) ? ShownText.bounded(principal.human()) : null,
				(principal != null) ? ShownText.bounded(principal.agent()) : null,
				(principal != null) ? ShownText.bounded(principal.team()) : null,
				ShownText.bounded(context.sessionId()), server.namespace(), server.name(), server.uid(),
				ShownText.bounded(method), ShownText.bounded(tool(message, contributions)), decision,
				context.errorCode(), context.reason(), status, Duration.ofNanos(elapsedNanos),
				context.upstream().dispatched(), contributions, trace);
	}

	/** The tool of a {@code tools/call}, else the first a contribution names. */
	private static @Nullable String tool(@Nullable JsonRpcMessage message, List<AuditContribution> contributions) {
		if (message != null && message.toolName() != null) {
			return message.toolName();
		}
		for (AuditContribution contribution : contributions) {
			if (contribution.tool() != null) {
				return contribution.tool();
			}
		}
		return null;
	}

}
