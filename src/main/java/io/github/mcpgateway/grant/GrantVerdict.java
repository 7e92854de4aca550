package io.github.mcpgateway.grant;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.request.StageDecision;

/**
 * What the grants said of a request: refused, with the decision the stage returns, or
 * allowed by the grant at {@code grantIndex} of the server's {@code grants}.
 *
 * @param refusal the stage's refusal, or {@code null} when allowed
 * @param grantIndex the deciding grant's index when allowed, {@code -1} when refused
 */
record GrantVerdict(@Nullable StageDecision refusal, int grantIndex) {

	static GrantVerdict refused(StageDecision refusal) {
		return new GrantVerdict(refusal, -1);
	}

	static GrantVerdict granted(int grantIndex) {
		return new GrantVerdict(null, grantIndex);
	}

}
