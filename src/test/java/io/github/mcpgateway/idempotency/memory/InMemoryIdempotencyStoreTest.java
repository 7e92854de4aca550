package io.github.mcpgateway.idempotency.memory;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.idempotency.IdempotencyProperties.Limits;
import io.github.mcpgateway.idempotency.IdempotencyStore;
import io.github.mcpgateway.idempotency.IdempotencyStoreContractTests;

class InMemoryIdempotencyStoreTest extends IdempotencyStoreContractTests {

	@Override
	protected IdempotencyStore createStore(Limits limits, GatewayClock clock) {
		return new InMemoryIdempotencyStore(limits, clock);
	}

}
