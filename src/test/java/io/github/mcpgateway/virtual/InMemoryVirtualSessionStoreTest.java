package io.github.mcpgateway.virtual;

import java.time.Duration;

import io.github.mcpgateway.session.SessionProperties;
import io.github.mcpgateway.support.MutableClock;

class InMemoryVirtualSessionStoreTest extends VirtualSessionStoreContractTests {

	@Override
	protected VirtualSessionStore createStore(SessionProperties properties, MutableClock clock) {
		return new InMemoryVirtualSessionStore(properties.maxBindings(), properties.idleTimeout(), clock);
	}

	@Override
	protected void elapse(Duration duration) {
		this.clock.advance(duration);
	}

}
