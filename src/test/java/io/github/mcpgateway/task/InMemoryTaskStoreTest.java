package io.github.mcpgateway.task;

import java.time.Clock;

/** The in-process task store against the {@link TaskStoreContractTests}. */
class InMemoryTaskStoreTest extends TaskStoreContractTests {

	@Override
	protected TaskStore createStore(TaskProperties properties, Clock clock) {
		return new InMemoryTaskStore(properties, clock);
	}

}
