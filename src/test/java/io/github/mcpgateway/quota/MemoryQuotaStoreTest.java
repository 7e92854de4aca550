package io.github.mcpgateway.quota;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.mcpgateway.support.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/** The memory store on the tests' clock, and its memory rule. */
class MemoryQuotaStoreTest extends QuotaStoreContractTests {

	private final MutableClock clock = new MutableClock();

	private MemoryQuotaStore store;

	@Override
	protected QuotaStore createStore() {
		this.store = new MemoryQuotaStore(this.clock);
		return this.store;
	}

	@Override
	protected void pass(Duration duration) {
		this.clock.advance(duration);
	}

	@Test
	void fullBucketsAreDropped() {
		for (int i = 0; i < 5000; i++) {
			this.store.consume(List.of(new QuotaBucket("s|limit|p:caller-" + i + "/", 1_000_000_000L, 10)));
		}
		assertThat(this.store.size()).isEqualTo(5000);

		this.clock.advance(Duration.ofSeconds(2));
		for (int i = 0; i < 4096; i++) {
			this.store.consume(List.of(new QuotaBucket("s|limit|p:again/", 1_000_000L, 10_000)));
		}

		assertThat(this.store.size()).as("only the bucket still in use is left").isEqualTo(1);
	}

}
