package io.github.mcpgateway.policy;

import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * Decides from a server's grants whether a principal may use the server and call a tool.
 * The one implementation of that rule: the grant stage, the tools/list filter and the
 * decision-explain endpoint all ask it.
 *
 * <p>
 * A principal may use a server (initialize, list, read, ...) when at least one grant
 * applies to it, and may call a tool when a grant that applies to it lists the tool.
 * Without a verified principal ({@code delegated-header} servers) every grant applies:
 * the upstream authenticates the caller, the gateway only limits the tools. Grants are
 * read in file order; the first that allows the request is the one reported.
 */
public final class GrantEvaluator {

	/**
	 * The decision for {@code principal} on {@code server}, and for calling {@code tool}
	 * when it is not {@code null}.
	 */
	public GrantDecision decide(McpServerPolicy server, @Nullable McpPrincipal principal, @Nullable String tool) {
		List<Grant> grants = server.grants();
		boolean anyApplies = false;
		for (int i = 0; i < grants.size(); i++) {
			Grant grant = grants.get(i);
			if (grant.appliesTo(principal)) {
				if (tool == null || grant.allowsTool(tool)) {
					return GrantDecision.allowedBy(i);
				}
				anyApplies = true;
			}
		}
		return GrantDecision.refused(anyApplies ? GrantDecision.Refusal.NO_APPLYING_GRANT_LISTS_TOOL
				: GrantDecision.Refusal.NO_GRANT_APPLIES);
	}

	public boolean mayUseServer(McpServerPolicy server, @Nullable McpPrincipal principal) {
		return decide(server, principal, null).allowed();
	}

	public boolean mayCallTool(McpServerPolicy server, @Nullable McpPrincipal principal, String tool) {
		return decide(server, principal, tool).allowed();
	}

}
