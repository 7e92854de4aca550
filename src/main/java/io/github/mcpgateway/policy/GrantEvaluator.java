package io.github.mcpgateway.policy;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * Decides from a server's grants whether a principal may use the server and call a tool.
 *
 * <p>
 * A principal may use a server (initialize, list, read, ...) when at least one grant
 * applies to it, and may call a tool when a grant that applies to it lists the tool.
 * Without a verified principal ({@code delegated-header} servers) every grant applies:
 * the upstream authenticates the caller, the gateway only limits the tools.
 */
public final class GrantEvaluator {

	public boolean mayUseServer(McpServerPolicy server, @Nullable McpPrincipal principal) {
		return server.grants().stream().anyMatch((grant) -> grant.appliesTo(principal));
	}

	public boolean mayCallTool(McpServerPolicy server, @Nullable McpPrincipal principal, String tool) {
		return server.grants().stream().anyMatch((grant) -> grant.appliesTo(principal) && grant.allowsTool(tool));
	}

}
