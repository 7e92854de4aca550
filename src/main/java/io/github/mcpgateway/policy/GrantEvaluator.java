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

	private static final int NO_GRANT_APPLIES = -1;

	private static final int NO_APPLYING_GRANT_LISTS_TOOL = -2;

	/**
	 * The decision for {@code principal} on {@code server}, and for calling {@code tool}
	 * when it is not {@code null}.
	 */
	public GrantDecision decide(McpServerPolicy server, @Nullable McpPrincipal principal, @Nullable String tool) {
		int decided = firstAllowingGrant(server, principal, tool);
		return switch (decided) {
			case NO_GRANT_APPLIES -> GrantDecision.NO_GRANT_APPLIES;
			case NO_APPLYING_GRANT_LISTS_TOOL -> GrantDecision.NO_APPLYING_GRANT_LISTS_TOOL;
			default -> GrantDecision.allowedBy(decided);
		};
	}

	/**
	 * The decision for {@code principal} on {@code server} for a request naming
	 * {@code item} of {@code kind}: as
	 * {@link #decide(McpServerPolicy, McpPrincipal, String)} for a tool; for a prompt or
	 * resource, the server's use alone unless the server governs that kind one by one
	 * ({@link McpServerPolicy#governs}).
	 */
	public GrantDecision decide(McpServerPolicy server, @Nullable McpPrincipal principal, Grant.Item kind,
			String item) {
		if (!server.governs(kind)) {
			return decide(server, principal, null);
		}
		int decided = firstAllowingGrant(server, principal, kind, item);
		return switch (decided) {
			case NO_GRANT_APPLIES -> GrantDecision.NO_GRANT_APPLIES;
			case NO_APPLYING_GRANT_LISTS_TOOL -> GrantDecision.notListed(kind);
			default -> GrantDecision.allowedBy(decided);
		};
	}

	/**
	 * Whether a list reply may show {@code item} of {@code kind} (a {@code prompts/list}
	 * or {@code resources/list} filter asks it once per item).
	 */
	public boolean mayUse(McpServerPolicy server, @Nullable McpPrincipal principal, Grant.Item kind, String item) {
		return firstAllowingGrant(server, principal, kind, item) >= 0;
	}

	public boolean mayUseServer(McpServerPolicy server, @Nullable McpPrincipal principal) {
		return firstAllowingGrant(server, principal, null) >= 0;
	}

	public boolean mayCallTool(McpServerPolicy server, @Nullable McpPrincipal principal, String tool) {
		return firstAllowingGrant(server, principal, tool) >= 0;
	}

	/**
	 * The index of the first grant that allows the request, or a negative refusal code:
	 * the rule itself, without allocating on the request path (a tools/list reply asks it
	 * once per tool).
	 */
	private static int firstAllowingGrant(McpServerPolicy server, @Nullable McpPrincipal principal,
			@Nullable String tool) {
		return firstAllowingGrant(server, principal, (tool != null) ? Grant.Item.TOOL : null, tool);
	}

	private static int firstAllowingGrant(McpServerPolicy server, @Nullable McpPrincipal principal,
			Grant.@Nullable Item kind, @Nullable String item) {
		List<Grant> grants = server.grants();
		boolean anyApplies = false;
		for (int i = 0; i < grants.size(); i++) {
			Grant grant = grants.get(i);
			if (grant.appliesTo(principal)) {
				if (kind == null || item == null || grant.allows(kind, item)) {
					return i;
				}
				anyApplies = true;
			}
		}
		return anyApplies ? NO_APPLYING_GRANT_LISTS_TOOL : NO_GRANT_APPLIES;
	}

}
