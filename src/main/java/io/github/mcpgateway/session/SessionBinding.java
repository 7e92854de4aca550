package io.github.mcpgateway.session;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * An MCP session as the gateway saw it created: what a later request carrying its id must
 * match.
 *
 * @param server the server's identity: its UID, or {@code name:namespace/name} for a
 * server without one (so a server recreated under the same name with a new UID does not
 * inherit the old server's sessions)
 * @param serverKey the server's display name ({@code namespace/name}), for audit
 * @param principal the principal that initialized it, {@code null} on a delegated-header
 * server
 */
public record SessionBinding(String server, String serverKey, @Nullable McpPrincipal principal) {

	static SessionBinding of(McpServerPolicy server, @Nullable McpPrincipal principal) {
		return new SessionBinding(server.identityKey(), server.qualifiedName(), principal);
	}

	/**
	 * Whether a request for {@code other}'s server by {@code other}'s principal may use
	 * it.
	 */
	boolean sameOwner(SessionBinding other) {
		return this.server.equals(other.server) && java.util.Objects.equals(this.principal, other.principal);
	}

}
