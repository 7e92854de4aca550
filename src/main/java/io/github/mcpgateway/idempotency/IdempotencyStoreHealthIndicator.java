package io.github.mcpgateway.idempotency;

import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health of the Idempotency-Key store ({@code idempotencyStore} component). Down when a
 * shared store cannot be reached: keyed requests then fail closed with 503, while unkeyed
 * traffic is unaffected, which is why this component is not part of the readiness group.
 * Up, it shows the store's counts, the fence that follows a loss of a shared store's data
 * while it holds (ADR 0025), and the store's settings that weaken its guarantee
 * ({@code warnings}, for example an eviction policy that can delete its keys).
 */
public class IdempotencyStoreHealthIndicator implements HealthIndicator {

	private final IdempotencyStore store;

	private final String type;

	private final BooleanSupplier reachable;

	private final Supplier<List<String>> warnings;

	public IdempotencyStoreHealthIndicator(IdempotencyStore store, String type, BooleanSupplier reachable) {
		this(store, type, reachable, List::of);
	}

	/**
	 * @param warnings what in the store's own settings weakens its guarantee, if anything
	 */
	public IdempotencyStoreHealthIndicator(IdempotencyStore store, String type, BooleanSupplier reachable,
			Supplier<List<String>> warnings) {
		this.store = store;
		this.type = type;
		this.reachable = reachable;
		this.warnings = warnings;
	}

	@Override
	public Health health() {
		if (!this.reachable.getAsBoolean()) {
			return Health.down().withDetail("store", this.type).withDetail("reason", "unreachable").build();
		}
		try {
			IdempotencyStats stats = this.store.stats();
			Health.Builder health = Health.up()
				.withDetail("store", this.type)
				.withDetail("entries", stats.entries())
				.withDetail("inFlight", stats.inFlight())
				.withDetail("tombstones", stats.tombstones())
				.withDetail("replayable", stats.replayable())
				.withDetail("bytes", stats.bytes());
			StoreFence fence = this.store.fence();
			if (fence != null) {
				health.withDetail("fence", Map.of("since", fence.since().toString(), "until", fence.until().toString(),
						"cause", fence.cause()));
			}
			List<String> weakened = this.warnings.get();
			if (!weakened.isEmpty()) {
				health.withDetail("warnings", weakened);
			}
			return health.build();
		}
		catch (IdempotencyStoreException ex) {
			return Health.down().withDetail("store", this.type).withDetail("reason", "store error").build();
		}
	}

}
