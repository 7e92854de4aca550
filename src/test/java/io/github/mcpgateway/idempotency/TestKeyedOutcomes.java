package io.github.mcpgateway.idempotency;

import io.github.mcpgateway.request.McpRequestContext;

/**
 * Records an Idempotency-Key outcome on a request context as the stage would, for tests
 * of what reads it.
 */
public final class TestKeyedOutcomes {

	private TestKeyedOutcomes() {
	}

	public static void record(McpRequestContext context, IdempotencyOutcome outcome, String keyHash) {
		KeyedOutcome.record(context, outcome, keyHash);
	}

}
