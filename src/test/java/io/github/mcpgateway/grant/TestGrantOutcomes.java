package io.github.mcpgateway.grant;

import io.github.mcpgateway.request.McpRequestContext;

/**
 * Records the grant stage's outcome on a request context as the stage would, for tests of
 * what reads it.
 */
public final class TestGrantOutcomes {

	private TestGrantOutcomes() {
	}

	/** Records that grant {@code grantIndex} allowed the request. */
	public static void allowed(McpRequestContext context, int grantIndex) {
		GrantOutcome.allowed(context, grantIndex);
	}

}
