package io.github.mcpgateway.idempotency;

import java.util.function.BooleanSupplier;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health of the Idempotency-Key store ({@code idempotencyStore} component). Down when a
 * shared store cannot be reached: keyed requests then fail closed with 503, while unkeyed
 * traffic is unaffected, which is why this component is not part of the readiness group.
 */
public class IdempotencyStoreHealthIndicator implements HealthIndicator {

	private final IdempotencyStore store;

	private final String type;

	private final BooleanSupplier reachable;

	public IdempotencyStoreHealthIndicator(IdempotencyStore store, String type, BooleanSupplier reachable) {
		this.store = store;
		this.type = type;
		this.reachable = reachable;
	}

	@Override
	public Health health() {
		if (!this.reachable.getAsBoolean()) {
			return Health.down().withDetail("store", this.type).withDetail("reason", "unreachable").build();
		}
		try {
			IdempotencyStats stats = this.store.stats();
			return Health.up()
				.withDetail("store", this.type)
				.withDetail("entries", stats.entries())
				.withDetail("inFlight", stats.inFlight())
				.withDetail("tombstones", stats.tombstones())
				.withDetail("replayable", stats.replayable())
				.withDetail("bytes", stats.bytes())
				.build();
		}
		catch (IdempotencyStoreException ex) {
			return Health.down().withDetail("store", this.type).withDetail("reason", "store error").build();
		}
	}

}
