package io.github.mcpgateway.explain;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.grant.GrantErrors;
import io.github.mcpgateway.policy.Grant;
import io.github.mcpgateway.policy.GrantDecision;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.LivePolicy;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.quota.QuotaInspector;
import io.github.mcpgateway.quota.VirtualQuota;

/**
 * Explains a request to a virtual server (ADR 0021) from one policy snapshot, with
 * nothing decided here: the member's answer is {@link DecisionExplainer}'s for the
 * member's own tool name and the original arguments (a call through the virtual server
 * meets every rule of a direct call), and the virtual server's own grants are decided by
 * {@link GrantEvaluator} on the exposed name.
 *
 * <p>
 * The parts are reported in this order, and the first that refuses gives the answer's
 * {@code reason}: the tool must be served (its prefix names a member, and the member's
 * {@code tools} selection holds its own name), the member must allow it, and the virtual
 * server's grants, when it has any, must allow it too. The virtual server's own limits a
 * served call would consume are listed with their buckets ({@link QuotaInspector}), as a
 * server's are in the member's answer.
 */
public final class VirtualServerExplainer {

	private static final String VIRTUAL_SERVER = "virtual_server";

	private static final String MEMBER = "member";

	private final LivePolicy livePolicy;

	private final DecisionExplainer members;

	private final GrantEvaluator grants;

	private final GatewayErrorRenderer errors;

	private final QuotaInspector quotas;

	public VirtualServerExplainer(LivePolicy livePolicy, DecisionExplainer members, GrantEvaluator grants,
			GatewayErrorRenderer errors, QuotaInspector quotas) {
		this.livePolicy = livePolicy;
		this.members = members;
		this.grants = grants;
		this.errors = errors;
		this.quotas = quotas;
	}

	/**
	 * The explanation when {@code reference} (path, uid or {@code namespace/name}) names
	 * a virtual server of the live policy, else {@code null}: a plain server's is
	 * {@link DecisionExplainer}'s. Parameters as
	 * {@link DecisionExplainer#explain(String, McpPrincipal, Grant.Item, String, JsonNode, List)};
	 * {@code tool} and {@code upstreamTools} are exposed (prefixed) names.
	 */
	public @Nullable VirtualExplanation explain(String reference, McpPrincipal principal, @Nullable String tool,
			@Nullable JsonNode arguments, @Nullable List<String> upstreamTools) {
		Policy policy = this.livePolicy.current();
		VirtualServerPolicy virtual = policy.findVirtual(reference);
		return (virtual != null) ? explain(policy, virtual, principal, tool, arguments, upstreamTools) : null;
	}

	/** Whether {@code reference} names a virtual server of the live policy. */
	public boolean names(String reference) {
		return this.livePolicy.current().findVirtual(reference) != null;
	}

	VirtualExplanation explain(Policy policy, VirtualServerPolicy virtual, McpPrincipal principal,
			@Nullable String tool, @Nullable JsonNode arguments, @Nullable List<String> upstreamTools) {
		VirtualExplanation.VirtualServer described = VirtualExplanation.VirtualServer.of(virtual,
				virtual.identity(policy));
		Explanation.ToolsListPreview preview = (upstreamTools != null)
				? preview(policy, virtual, principal, upstreamTools) : null;
		if (tool == null) {
			List<Explanation> answers = new ArrayList<>();
			for (VirtualServerPolicy.Member member : virtual.members()) {
				answers.add(this.members.explain(policy, serverOf(policy, member), principal, Grant.Item.TOOL, null,
						null, null));
			}
			VirtualExplanation.VirtualGrants own = own(virtual, principal, null, null);
			boolean allowed = own == null || own.allowed();
			return new VirtualExplanation(policy.version(), described, allowed, allowed ? null : VIRTUAL_SERVER,
					allowed ? null : own.reason(), allowed ? null : own.errorCode(), allowed ? null : own.status(),
					null, null, null, List.copyOf(answers), own, List.of(), preview);
		}
		VirtualServerPolicy.Member member = virtual.memberOf(tool);
		if (member == null || !member.serves(member.localName(tool))) {
			return new VirtualExplanation(policy.version(), described, false, VIRTUAL_SERVER, "tool_not_served", null,
					null, tool, null, null, List.of(), null, List.of(), preview);
		}
		return served(policy, virtual, member, principal, tool, arguments, described, preview);
	}

	/** The answer for {@code tool}, which {@code member} serves. */
	private VirtualExplanation served(Policy policy, VirtualServerPolicy virtual, VirtualServerPolicy.Member member,
			McpPrincipal principal, String tool, @Nullable JsonNode arguments,
			VirtualExplanation.VirtualServer described, Explanation.@Nullable ToolsListPreview preview) {
		String localName = member.localName(tool);
		Explanation answer = this.members.explain(policy, serverOf(policy, member), principal, Grant.Item.TOOL,
				localName, arguments, null);
		VirtualExplanation.VirtualGrants own = own(virtual, principal, tool, arguments);
		VirtualExplanation.Served served = new VirtualExplanation.Served(member.server(), member.prefix(), localName);
		List<QuotaInspector.LimitView> limits = this.quotas.limits(new VirtualQuota(virtual, tool), principal);
		if (!answer.allowed()) {
			return new VirtualExplanation(policy.version(), described, false, MEMBER, answer.reason(),
					answer.errorCode(), answer.status(), tool, served, answer, List.of(), own, limits, preview);
		}
		if (own != null && !own.allowed()) {
			return new VirtualExplanation(policy.version(), described, false, VIRTUAL_SERVER, own.reason(),
					own.errorCode(), own.status(), tool, served, answer, List.of(), own, limits, preview);
		}
		return new VirtualExplanation(policy.version(), described, true, null, null, null, null, tool, served, answer,
				List.of(), own, limits, preview);
	}

	/** The virtual server's own grants on {@code tool}; {@code null} when it has none. */
	private VirtualExplanation.@Nullable VirtualGrants own(VirtualServerPolicy virtual, McpPrincipal principal,
			@Nullable String tool, @Nullable JsonNode arguments) {
		if (virtual.grants().isEmpty()) {
			return null;
		}
		GrantDecision decision = this.grants.decideRequest(virtual, principal, tool, arguments);
		List<Explanation.ConditionView> conditions = VirtualExplanation.conditionsOf(decision);
		GrantDecision.Refusal refusal = decision.refusal();
		if (refusal == null) {
			return new VirtualExplanation.VirtualGrants(true, null, null, null,
					Explanation.GrantView.of(decision.grantIndex(), virtual.grants().get(decision.grantIndex())),
					conditions, null);
		}
		GatewayError error = GrantErrors.errorOf(decision);
		return new VirtualExplanation.VirtualGrants(false, refusal.name().toLowerCase(Locale.ROOT), error.code(),
				this.errors.statusOf(error, true), null, conditions, decision.deniedBy());
	}

	/**
	 * The merged list a tools/list reply would show of {@code exposed}: a name is visible
	 * when a member serves it, the member's own preview shows its own name, and the
	 * virtual server's grants (if any) could allow it.
	 */
	private Explanation.ToolsListPreview preview(Policy policy, VirtualServerPolicy virtual, McpPrincipal principal,
			List<String> exposed) {
		List<String> visible = new ArrayList<>();
		List<String> hidden = new ArrayList<>();
		for (String name : exposed) {
			VirtualServerPolicy.Member member = virtual.memberOf(name);
			boolean shown = false;
			if (member != null && member.serves(member.localName(name))) {
				String localName = member.localName(name);
				Explanation.ToolsListPreview own = this.members
					.explain(policy, serverOf(policy, member), principal, Grant.Item.TOOL, null, null,
							List.of(localName))
					.toolsList();
				shown = own != null && own.visible().contains(localName)
						&& this.grants.mayCallTool(virtual, principal, name);
			}
			(shown ? visible : hidden).add(name);
		}
		return new Explanation.ToolsListPreview(List.copyOf(visible), List.copyOf(hidden));
	}

	/** The member's server; the parser guarantees the policy holds it. */
	private static McpServerPolicy serverOf(Policy policy, VirtualServerPolicy.Member member) {
		McpServerPolicy server = policy.named(member.server());
		if (server == null) {
			throw new IllegalStateException("the policy does not hold " + member.server());
		}
		return server;
	}

}
