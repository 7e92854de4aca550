package io.github.mcpgateway.task;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * An MCP task as the gateway saw it created: what a later task request must match.
 *
 * @param server the server's identity ({@code McpServerPolicy.identityKey()}: its UID, so
 * a server recreated with a new UID does not inherit the old one's tasks)
 * @param serverKey the server's display name ({@code namespace/name}), for audit
 * @param principal the verified principal whose call created the task
 * @param tool the tool whose call created it: a task request is decided by the live
 * grants of this tool
 * @param session the first 16 hex characters of the creating session id's hash, or
 * {@code null} without a session (for audit; a task is the principal's, not the
 * session's)
 * @param expiresAt when the binding is forgotten: the task's own ttl from its creation,
 * capped by {@code gateway.task.max-ttl}
 */
public record TaskBinding(String server, String serverKey, McpPrincipal principal, String tool,
		@Nullable String session, Instant expiresAt) {

	/** Whether a request by {@code caller} on {@code server} may use the task. */
	boolean ownedBy(String server, McpPrincipal caller) {
		return this.server.equals(server) && this.principal.equals(caller);
	}

}
