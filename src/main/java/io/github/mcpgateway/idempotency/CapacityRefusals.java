package io.github.mcpgateway.idempotency;

import java.util.EnumMap;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.github.mcpgateway.idempotency.BeginResult.Limit;

/**
 * Counts the keyed requests refused with {@code 429 idempotency_capacity}, by the limit
 * that refused them ({@link IdempotencyMeters#CAPACITY_REFUSALS}, tag {@code limit}).
 * Every limit's counter exists from start-up, so a scrape shows each at 0 before its
 * first refusal.
 */
final class CapacityRefusals {

	private final Map<Limit, Counter> counters = new EnumMap<>(Limit.class);

	CapacityRefusals(MeterRegistry meterRegistry) {
		for (Limit limit : Limit.values()) {
			this.counters.put(limit,
					Counter.builder(IdempotencyMeters.CAPACITY_REFUSALS)
						.tag("limit", limit.tag())
						.register(meterRegistry));
		}
	}

	void refused(Limit limit) {
		this.counters.get(limit).increment();
	}

}
