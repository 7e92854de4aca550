package io.github.mcpgateway.task;

import io.github.mcpgateway.clock.GatewayClock;

/** The in-process task store against the {@link TaskStoreContractTests}. */
class InMemoryTaskStoreTest extends TaskStoreContractTests {

	@Override
	protected TaskStore createStore(TaskProperties properties, GatewayClock clock) {
		return new InMemoryTaskStore(properties, clock);
	}

}
