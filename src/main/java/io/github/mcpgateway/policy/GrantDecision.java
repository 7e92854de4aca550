package io.github.mcpgateway.policy;

import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.condition.ConditionResult;

/**
 * What a server's grants decide for one principal (and item): allowed, by the first grant
 * that allows it, or refused, with the reason. The request path asks {@link #allowed()}
 * and counts the evaluation errors among {@link #conditions()}; the decision-explain
 * endpoint and {@code validate} show the rest.
 *
 * @param grantIndex the index in the server's {@code grants} of the first grant that
 * allows the request, or {@code -1} when refused
 * @param refusal why no grant allows it, or {@code null} when allowed
 * @param deniedBy for a refusal by conditions, the first grant whose condition on the
 * call was not met, as {@link Grant#label} names it; {@code null} otherwise
 * @param conditions the conditions evaluated, in grant order; empty when none was
 */
public record GrantDecision(int grantIndex, @Nullable Refusal refusal, @Nullable String deniedBy,
		List<Evaluated> conditions) {

	/** Why the grants refuse. */
	public enum Refusal {

		/** No grant of the server applies to the principal. */
		NO_GRANT_APPLIES,

		/**
		 * Grants apply to the principal, but none of them lists the tool (or the only
		 * ones that do have a condition on the principal, server or tool that is not
		 * met).
		 */
		NO_APPLYING_GRANT_LISTS_TOOL,

		/** Grants apply to the principal, but none of them lists the prompt. */
		NO_APPLYING_GRANT_LISTS_PROMPT,

		/** Grants apply to the principal, but none of them lists the resource. */
		NO_APPLYING_GRANT_LISTS_RESOURCE,

		/**
		 * Grants that apply list the tool, but the conditions of those that read the
		 * call's arguments are not met by this call.
		 */
		CONDITIONS_DENY_TOOL,

		/** The same for a prompt ({@code prompts/get}, its arguments). */
		CONDITIONS_DENY_PROMPT,

		/** The same for a resource request (its params). */
		CONDITIONS_DENY_RESOURCE

	}

	/**
	 * One condition evaluated for the decision.
	 *
	 * @param grant the grant's index in the server's {@code grants}
	 * @param label the grant's name, or {@code grants[i]}
	 * @param expression the condition as written
	 * @param readsCall whether it reads the call's {@code arguments} or {@code params}
	 * @param result what it gave
	 */
	public record Evaluated(int grant, String label, String expression, boolean readsCall, ConditionResult result) {
	}

	static final GrantDecision NO_GRANT_APPLIES = refused(Refusal.NO_GRANT_APPLIES, null, List.of());

	public GrantDecision {
		if ((refusal == null) == (grantIndex < 0)) {
			throw new IllegalArgumentException("a decision is either allowed by a grant or refused with a reason");
		}
		conditions = List.copyOf(conditions);
	}

	static GrantDecision notListed(Grant.Item kind, List<Evaluated> conditions) {
		return refused(switch (kind) {
			case TOOL -> Refusal.NO_APPLYING_GRANT_LISTS_TOOL;
			case PROMPT -> Refusal.NO_APPLYING_GRANT_LISTS_PROMPT;
			case RESOURCE -> Refusal.NO_APPLYING_GRANT_LISTS_RESOURCE;
		}, null, conditions);
	}

	static GrantDecision conditionsDeny(Grant.Item kind, String deniedBy, List<Evaluated> conditions) {
		return refused(switch (kind) {
			case TOOL -> Refusal.CONDITIONS_DENY_TOOL;
			case PROMPT -> Refusal.CONDITIONS_DENY_PROMPT;
			case RESOURCE -> Refusal.CONDITIONS_DENY_RESOURCE;
		}, deniedBy, conditions);
	}

	static GrantDecision allowedBy(int grantIndex, List<Evaluated> conditions) {
		return new GrantDecision(grantIndex, null, null, conditions);
	}

	private static GrantDecision refused(Refusal refusal, @Nullable String deniedBy, List<Evaluated> conditions) {
		return new GrantDecision(-1, refusal, deniedBy, conditions);
	}

	public boolean allowed() {
		return this.refusal == null;
	}

}
