package io.github.mcpgateway.explain;

import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.Grant;
import io.github.mcpgateway.policy.GrantDecision;
import io.github.mcpgateway.principal.IdentityMode;
import io.github.mcpgateway.quota.QuotaInspector;

/**
 * The answer of the decision-explain endpoint: what the request path would decide for a
 * principal on a server (and tool), from one policy snapshot and one revocation list.
 *
 * @param policyVersion the version of the policy snapshot the answer comes from
 * @param server the server the reference named, or {@code null} when none
 * @param principalVerified whether the server verifies callers ({@code false} on a
 * {@code delegated-header} server: every grant applies, the upstream authenticates)
 * @param allowed whether the request would pass the revocation and grant checks
 * @param reason why not: {@code no_server}, {@code principal_revoked},
 * {@code no_grant_applies} or {@code no_applying_grant_lists_tool}; {@code null} when
 * allowed
 * @param errorCode the {@code error.data.code} a client would get, {@code null} when
 * allowed
 * @param status the HTTP status a client would get, {@code null} when allowed
 * @param grant the grant that allows it, {@code null} when refused
 * @param toolsList the preview of a tools/list reply, {@code null} when no upstream tool
 * list was given
 * @param excludedBy the grants that apply and match the tool but name it in their
 * {@code except}, with the excluding pattern; empty otherwise
 * @param limits the server's limits the request would consume, with the tokens the
 * caller's bucket holds now (explain takes none); empty when none applies
 * @param conditions the grant conditions the decision evaluated, in grant order, each
 * with its result; empty when none was
 * @param deniedBy for {@code tool_arguments_denied} (and the prompt and resource
 * equivalents), the grant the refusal names ({@code error.data.grant})
 */
public record Explanation(String policyVersion, @Nullable Server server, boolean principalVerified, boolean allowed,
		@Nullable String reason, @Nullable String errorCode, @Nullable Integer status, @Nullable GrantView grant,
		@Nullable ToolsListPreview toolsList, List<Exclusion> excludedBy, List<QuotaInspector.LimitView> limits,
		List<ConditionView> conditions, @Nullable String deniedBy) {

	/**
	 * A grant condition and what it gave for the request explained.
	 *
	 * @param grant the grant's position in the server's {@code grants} list, from 0
	 * @param name the grant's name, or {@code grants[i]}
	 * @param when the condition as written
	 * @param decidedAt {@code call} when it reads the call's arguments or params (a list
	 * reply shows the item and the call decides), {@code list} otherwise
	 * @param result {@code true}, {@code false}, or the evaluation error that counted as
	 * false ({@code missing_field}, {@code wrong_type}, {@code not_boolean},
	 * {@code budget_exceeded}, {@code failed})
	 */
	public record ConditionView(int grant, String name, String when, String decidedAt, String result) {

		static ConditionView of(GrantDecision.Evaluated evaluated) {
			return new ConditionView(evaluated.grant(), evaluated.label(), evaluated.expression(),
					evaluated.readsCall() ? "call" : "list", evaluated.result().label());
		}

	}

	/**
	 * A grant that would allow the tool but for one of its exceptions.
	 *
	 * @param grant its position in the server's {@code grants} list, from 0
	 * @param pattern the {@code except} pattern that matches the tool
	 */
	public record Exclusion(int grant, String pattern) {
	}

	/**
	 * The server, as the policy endpoint names it ({@code identity} as in the policy
	 * file).
	 */
	public record Server(String namespace, String name, @Nullable String uid, String path, IdentityMode identity) {
	}

	/**
	 * A grant as written in the policy file.
	 *
	 * @param index its position in the server's {@code grants} list, from 0
	 * @param principal its principal patterns ({@code *} where the file omits a part)
	 * @param tools its tool names and patterns
	 * @param except the tools it does not allow although {@code tools} matches them
	 * @param prompts its prompt names and patterns
	 * @param resources its resource URIs and patterns
	 * @param name its name, {@code null} when it has none
	 * @param when its condition, {@code null} when it has none
	 */
	public record GrantView(int index, PrincipalPatterns principal, List<String> tools, List<String> except,
			List<String> prompts, List<String> resources, @Nullable String name, @Nullable String when) {

		static GrantView of(int index, Grant grant) {
			return new GrantView(index,
					new PrincipalPatterns(grant.principal().human(), grant.principal().agent(),
							grant.principal().team()),
					grant.tools(), grant.except(), grant.prompts(), grant.resources(), grant.name(),
					(grant.when() != null) ? grant.when().source() : null);
		}

	}

	/** The principal patterns of a grant. */
	public record PrincipalPatterns(@Nullable String human, @Nullable String agent, @Nullable String team) {
	}

	/**
	 * Which tools of an upstream's tools/list reply the principal would see.
	 *
	 * @param visible the tools it may call, in the given order
	 * @param hidden the tools the gateway would remove from the reply
	 */
	public record ToolsListPreview(List<String> visible, List<String> hidden) {
	}

}
