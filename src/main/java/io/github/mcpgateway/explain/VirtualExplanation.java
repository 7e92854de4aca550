package io.github.mcpgateway.explain;

import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.GrantDecision;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.principal.IdentityMode;
import io.github.mcpgateway.quota.QuotaInspector;

/**
 * The answer of the decision-explain endpoint when the server reference names a virtual
 * server (ADR 0021): which member serves the tool, that member's own answer for its own
 * tool name (an {@link Explanation}, as if the call went to the member directly, with the
 * same arguments), and what the virtual server's own grants say of the exposed name. A
 * plain server's answer stays an {@link Explanation}.
 *
 * @param policyVersion the version of the policy snapshot every part comes from
 * @param virtualServer the virtual server the reference named
 * @param allowed whether the request would pass: the tool is served, the member allows it
 * and the virtual server's grants (if any) allow it
 * @param decidedBy which part refuses: {@code virtual_server} (not served, or its own
 * grants) or {@code member}; {@code null} when allowed
 * @param reason why not: {@code tool_not_served}, or the refusing part's own reason
 * ({@link Explanation#reason()}); {@code null} when allowed
 * @param errorCode the {@code error.data.code} a client would get; {@code null} when
 * allowed, and for {@code tool_not_served}
 * @param status the HTTP status a client would get, as {@code errorCode}
 * @param tool the exposed tool name asked about ({@code notes_echo}); {@code null} for a
 * request that names no tool
 * @param servedBy the member that serves {@code tool} and the member's own name for it;
 * {@code null} when no member serves it, or no tool was named
 * @param member the member's own answer for its tool name; {@code null} when not served
 * or no tool was named
 * @param members for a request that names no tool (initialize, tools/list), each member's
 * own answer for it, in member order: a member that refuses contributes no tools to the
 * merged list; empty when a tool was named
 * @param virtualGrants the decision of the virtual server's own grants on the exposed
 * name; {@code null} when it has none (the members' grants alone decide) or the tool is
 * not served
 * @param virtualLimits the virtual server's own limits a served call of {@code tool}
 * would consume, with the tokens the caller's bucket holds now (the member's own are in
 * {@code member}); empty when none apply, the tool is not served or no tool was named
 * @param toolsList the preview of a merged tools/list reply for the exposed names given,
 * {@code null} when none were given
 */
public record VirtualExplanation(String policyVersion, VirtualServer virtualServer, boolean allowed,
		@Nullable String decidedBy, @Nullable String reason, @Nullable String errorCode, @Nullable Integer status,
		@Nullable String tool, @Nullable Served servedBy, @Nullable Explanation member, List<Explanation> members,
		@Nullable VirtualGrants virtualGrants, List<QuotaInspector.LimitView> virtualLimits,
		Explanation.@Nullable ToolsListPreview toolsList) {

	/**
	 * A virtual server as the policy file declares it, with the identity mode its members
	 * share.
	 */
	public record VirtualServer(String namespace, String name, String uid, String path, IdentityMode identity,
			List<MemberView> members) {

		static VirtualServer of(VirtualServerPolicy server, IdentityMode identity) {
			return new VirtualServer(server.namespace(), server.name(), server.uid(), server.path(), identity,
					server.members()
						.stream()
						.map((member) -> new MemberView(member.server(), member.prefix(), member.tools()))
						.toList());
		}

	}

	/**
	 * A member as written in the file.
	 *
	 * @param server its {@code namespace/name}
	 * @param prefix its prefix
	 * @param tools its tool selection, on its own names
	 */
	public record MemberView(String server, String prefix, List<String> tools) {
	}

	/**
	 * Which member serves an exposed name.
	 *
	 * @param server the member's {@code namespace/name}
	 * @param prefix the member's prefix
	 * @param tool the member's own name for the tool, the one its grants and conditions
	 * read
	 */
	public record Served(String server, String prefix, String tool) {
	}

	/**
	 * What the virtual server's own grants decide, on the exposed name.
	 *
	 * @param allowed whether they allow it
	 * @param reason why not, as {@link Explanation#reason()}; {@code null} when allowed
	 * @param errorCode the code a client would get; {@code null} when allowed
	 * @param status the HTTP status a client would get; {@code null} when allowed
	 * @param grant the virtual server's grant that allows it; {@code null} when refused
	 * @param conditions the conditions evaluated, as {@link Explanation#conditions()}
	 * @param deniedBy the grant a refusal by conditions names
	 */
	public record VirtualGrants(boolean allowed, @Nullable String reason, @Nullable String errorCode,
			@Nullable Integer status, Explanation.@Nullable GrantView grant, List<Explanation.ConditionView> conditions,
			@Nullable String deniedBy) {
	}

	static List<Explanation.ConditionView> conditionsOf(GrantDecision decision) {
		return decision.conditions().stream().map(Explanation.ConditionView::of).toList();
	}

}
