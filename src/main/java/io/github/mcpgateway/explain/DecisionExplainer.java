package io.github.mcpgateway.explain;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.grant.GrantErrors;
import io.github.mcpgateway.policy.Grant;
import io.github.mcpgateway.policy.GrantDecision;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.LivePolicy;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.principal.IdentityMode;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.quota.QuotaInspector;
import io.github.mcpgateway.revocation.RevocationList;
import io.github.mcpgateway.revocation.RevocationSync;

/**
 * Answers "would this principal be allowed, and why" from the live policy and the live
 * revocation list, with the request path's own rules, checked in the request path's
 * order: the server must exist, the principal must not be revoked, a grant must apply to
 * it, and for a tool call one of the applying grants must list the tool. The grant rule
 * is {@link GrantEvaluator}'s, the revocation rule {@link RevocationList}'s; this class
 * only reports what they decide.
 */
public final class DecisionExplainer {

	private final LivePolicy livePolicy;

	private final GrantEvaluator grants;

	private final RevocationSync revocations;

	private final QuotaInspector quotas;

	/** The status a refusal is answered with, as the request path renders it. */
	private final GatewayErrorRenderer errors;

	public DecisionExplainer(LivePolicy livePolicy, GrantEvaluator grants, RevocationSync revocations,
			GatewayErrorRenderer errors, QuotaInspector quotas) {
		this.quotas = quotas;
		this.errors = errors;
		this.livePolicy = livePolicy;
		this.grants = grants;
		this.revocations = revocations;
	}

	/**
	 * @param serverReference the server's path, uid or {@code namespace/name}
	 * @param principal the caller; ignored on a {@code delegated-header} server, which
	 * has no verified principal
	 * @param tool the tool of a {@code tools/call}, or {@code null} for any other request
	 * @param upstreamTools the tool names of an upstream tools/list reply to preview, or
	 * {@code null}
	 */
	public Explanation explain(String serverReference, McpPrincipal principal, @Nullable String tool,
			@Nullable List<String> upstreamTools) {
		return explain(serverReference, principal, Grant.Item.TOOL, tool, null, upstreamTools);
	}

	/**
	 * The same for a request naming {@code item} of {@code kind} (a {@code prompts/get}
	 * or {@code resources/read}, as the grant stage decides it); {@code item}
	 * {@code null} for a request that names none. {@code arguments} are the call's
	 * {@code params.arguments} (a JSON object; {@code null} for none), which the grants'
	 * conditions read as they would on the real call.
	 */
	public Explanation explain(String serverReference, McpPrincipal principal, Grant.Item kind, @Nullable String item,
			@Nullable JsonNode arguments, @Nullable List<String> upstreamTools) {
		Policy policy = this.livePolicy.current();
		McpServerPolicy server = policy.find(serverReference);
		if (server == null) {
			return refused(policy, null, true, "no_server", GatewayErrors.NOT_FOUND, null);
		}
		return explain(policy, server, principal, kind, item, arguments, upstreamTools);
	}

	/**
	 * The same for {@code server} of {@code policy}: the one snapshot a virtual server's
	 * explanation reads for all its parts ({@link VirtualServerExplainer}).
	 */
	Explanation explain(Policy policy, McpServerPolicy server, McpPrincipal principal, Grant.Item kind,
			@Nullable String item, @Nullable JsonNode arguments, @Nullable List<String> upstreamTools) {
		String tool = (kind == Grant.Item.TOOL) ? item : null;
		boolean verified = server.identity() != IdentityMode.DELEGATED_HEADER;
		McpPrincipal caller = verified ? principal : null;
		if (caller != null && this.revocations.current().revokesPrincipal(caller)) {
			return refused(policy, server, verified, "principal_revoked", GatewayErrors.PRINCIPAL_REVOKED,
					preview(server, caller, upstreamTools, false));
		}
		Explanation.ToolsListPreview preview = preview(server, caller, upstreamTools, true);
		GrantDecision decision = this.grants.decideRequest(server, caller, kind, item, arguments);
		List<Explanation.ConditionView> conditions = decision.conditions()
			.stream()
			.map(Explanation.ConditionView::of)
			.toList();
		GrantDecision.Refusal refusal = decision.refusal();
		if (refusal == null) {
			return new Explanation(policy.version(), describe(server), verified, true, null, null, null,
					Explanation.GrantView.of(decision.grantIndex(), server.grants().get(decision.grantIndex())),
					preview, List.of(), this.quotas.limits(server, caller, tool), conditions, null);
		}
		// The grant stage asks about the server before the tool, so a principal no grant
		// applies to gets server_not_granted even on a tools/call.
		GatewayError error = GrantErrors.errorOf(decision);
		return new Explanation(policy.version(), describe(server), verified, false,
				refusal.name().toLowerCase(Locale.ROOT), error.code(), this.errors.statusOf(error, true), null, preview,
				exclusions(server, caller, tool), List.of(), conditions, decision.deniedBy());
	}

	private Explanation refused(Policy policy, @Nullable McpServerPolicy server, boolean verified, String reason,
			GatewayError error, Explanation.@Nullable ToolsListPreview preview) {
		return new Explanation(policy.version(), (server != null) ? describe(server) : null, verified, false, reason,
				error.code(), this.errors.statusOf(error, true), null, preview, List.of(), List.of(), List.of(), null);
	}

	/** The applying grants whose exceptions name the tool. */
	private static List<Explanation.Exclusion> exclusions(McpServerPolicy server, @Nullable McpPrincipal caller,
			@Nullable String tool) {
		if (tool == null) {
			return List.of();
		}
		List<Explanation.Exclusion> excluded = new ArrayList<>();
		for (int i = 0; i < server.grants().size(); i++) {
			Grant grant = server.grants().get(i);
			String pattern = grant.appliesTo(caller) ? grant.excluding(tool) : null;
			if (pattern != null) {
				excluded.add(new Explanation.Exclusion(i, pattern));
			}
		}
		return excluded;
	}

	/**
	 * The tools a tools/list reply would keep: those the grant stage lets the caller
	 * call, asked tool by tool exactly as the reply filter asks; none when the listing
	 * itself would be refused.
	 */
	private Explanation.@Nullable ToolsListPreview preview(McpServerPolicy server, @Nullable McpPrincipal caller,
			@Nullable List<String> upstreamTools, boolean notRevoked) {
		if (upstreamTools == null) {
			return null;
		}
		boolean mayList = notRevoked && this.grants.mayUseServer(server, caller);
		List<String> visible = new ArrayList<>();
		List<String> hidden = new ArrayList<>();
		for (String tool : upstreamTools) {
			(mayList && this.grants.mayCallTool(server, caller, tool) ? visible : hidden).add(tool);
		}
		return new Explanation.ToolsListPreview(List.copyOf(visible), List.copyOf(hidden));
	}

	private static Explanation.Server describe(McpServerPolicy server) {
		return new Explanation.Server(server.namespace(), server.name(), server.uid(), server.path(),
				server.identity());
	}

}
