package io.github.mcpgateway.idempotency.memory;

import java.time.Clock;

import io.github.mcpgateway.idempotency.IdempotencyProperties.Limits;
import io.github.mcpgateway.idempotency.IdempotencyStore;
import io.github.mcpgateway.idempotency.IdempotencyStoreContractTests;

class InMemoryIdempotencyStoreTest extends IdempotencyStoreContractTests {

	@Override
	protected IdempotencyStore createStore(Limits limits, Clock clock) {
		return new InMemoryIdempotencyStore(limits, clock);
	}

}
