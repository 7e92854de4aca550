package io.github.mcpgateway.session;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * An MCP session as the gateway saw it created.
 *
 * @param serverKey the server it was created on ({@code namespace/name})
 * @param principal the principal that initialized it, {@code null} on a delegated-header
 * server
 * @param lastUsed when it was last used
 */
record SessionBinding(String serverKey, @Nullable McpPrincipal principal, Instant lastUsed) {

	SessionBinding touched(Instant now) {
		return new SessionBinding(this.serverKey, this.principal, now);
	}

}
