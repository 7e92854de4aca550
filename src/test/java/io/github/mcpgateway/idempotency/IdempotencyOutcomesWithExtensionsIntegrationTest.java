package io.github.mcpgateway.idempotency;

import org.springframework.test.context.TestPropertySource;

/**
 * Every outcome test again, with both extensions of ADR 0008 on: what they do not change
 * must not change.
 */
@TestPropertySource(properties = { "gateway.idempotency.event-streams=replay",
		"gateway.idempotency.request-hash=without-jsonrpc-id" })
class IdempotencyOutcomesWithExtensionsIntegrationTest extends IdempotencyOutcomesIntegrationTest {

}
