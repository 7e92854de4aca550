package io.github.mcpgateway.policy;

import org.jspecify.annotations.Nullable;

/**
 * What a server's grants decide for one principal (and tool): allowed, by the first grant
 * that allows it, or refused, with the reason. The request path only asks
 * {@link #allowed()}; the decision-explain endpoint shows the rest.
 *
 * @param grantIndex the index in the server's {@code grants} of the first grant that
 * allows the request, or {@code -1} when refused
 * @param refusal why no grant allows it, or {@code null} when allowed
 */
public record GrantDecision(int grantIndex, @Nullable Refusal refusal) {

	/** Why the grants refuse. */
	public enum Refusal {

		/** No grant of the server applies to the principal. */
		NO_GRANT_APPLIES,

		/** Grants apply to the principal, but none of them lists the tool. */
		NO_APPLYING_GRANT_LISTS_TOOL,

		/** Grants apply to the principal, but none of them lists the prompt. */
		NO_APPLYING_GRANT_LISTS_PROMPT,

		/** Grants apply to the principal, but none of them lists the resource. */
		NO_APPLYING_GRANT_LISTS_RESOURCE

	}

	static final GrantDecision NO_GRANT_APPLIES = new GrantDecision(-1, Refusal.NO_GRANT_APPLIES);

	static final GrantDecision NO_APPLYING_GRANT_LISTS_TOOL = new GrantDecision(-1,
			Refusal.NO_APPLYING_GRANT_LISTS_TOOL);

	public GrantDecision {
		if ((refusal == null) == (grantIndex < 0)) {
			throw new IllegalArgumentException("a decision is either allowed by a grant or refused with a reason");
		}
	}

	static GrantDecision notListed(Grant.Item kind) {
		return switch (kind) {
			case TOOL -> NO_APPLYING_GRANT_LISTS_TOOL;
			case PROMPT -> new GrantDecision(-1, Refusal.NO_APPLYING_GRANT_LISTS_PROMPT);
			case RESOURCE -> new GrantDecision(-1, Refusal.NO_APPLYING_GRANT_LISTS_RESOURCE);
		};
	}

	static GrantDecision allowedBy(int grantIndex) {
		return new GrantDecision(grantIndex, null);
	}

	public boolean allowed() {
		return this.refusal == null;
	}

}
