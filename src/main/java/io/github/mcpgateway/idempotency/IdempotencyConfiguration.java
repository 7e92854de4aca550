package io.github.mcpgateway.idempotency;

import java.time.Clock;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.transport.StreamingMediaTypes;

/**
 * Wires the Idempotency-Key stage and the store {@code gateway.idempotency.store} names.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IdempotencyProperties.class)
class IdempotencyConfiguration {

	@Bean
	IdempotencyKeyHeaderRule idempotencyKeyHeaderRule() {
		return new IdempotencyKeyHeaderRule();
	}

	@Bean
	KeyedRequestRefusals keyedRequestRefusals() {
		return new KeyedRequestRefusals();
	}

	@Bean
	IdempotencyStage idempotencyStage(IdempotencyStore store, IdempotencyProperties properties,
			StreamingMediaTypes streamingMediaTypes, MeterRegistry meterRegistry) {
		return new IdempotencyStage(store, properties, streamingMediaTypes, new CapacityRefusals(meterRegistry));
	}

	@Bean
	IdempotencyEndpoint idempotencyEndpoint(IdempotencyStore store, IdempotencyProperties properties,
			MeterRegistry meterRegistry, ApplicationEventPublisher events, Clock clock) {
		return new IdempotencyEndpoint(store, properties.store().name().toLowerCase(java.util.Locale.ROOT),
				meterRegistry, events, clock);
	}

	@Bean
	IdempotencyStoreGauges idempotencyStoreGauges(IdempotencyStore store, IdempotencyProperties properties,
			MeterRegistry meterRegistry, GatewayClock clock) {
		return new IdempotencyStoreGauges(store, properties.activeLimits(), meterRegistry, clock);
	}

	/**
	 * Store counts as gauges. The store gauges of one scrape share one
	 * {@link IdempotencyStore#stats()} snapshot (on Redis, one Lua script run): a
	 * snapshot is reused for a second.
	 */
	static final class IdempotencyStoreGauges {

		private static final long SNAPSHOT_NANOS = 1_000_000_000L;

		private final IdempotencyStore store;

		private final GatewayClock clock;

		private volatile @Nullable Snapshot snapshot;

		IdempotencyStoreGauges(IdempotencyStore store, IdempotencyProperties.Limits limits, MeterRegistry meterRegistry,
				GatewayClock clock) {
			this.store = store;
			this.clock = clock;
			storeGauge(IdempotencyMeters.STORE_FULLEST_SCOPE_BUDGET, IdempotencyStats::fullestScopeBudget)
				.register(meterRegistry);
			Gauge.builder(IdempotencyMeters.LIMIT_TOMBSTONES_PER_SCOPE, limits::maxTombstonesPerScope)
				.register(meterRegistry);
			storeGauge(IdempotencyMeters.STORE_FULLEST_HUMAN_BUDGET, IdempotencyStats::fullestHumanBudget)
				.register(meterRegistry);
			Gauge.builder(IdempotencyMeters.LIMIT_TOMBSTONES_PER_HUMAN, limits::maxTombstonesPerHuman)
				.register(meterRegistry);
			storeGauge(IdempotencyMeters.STORE_ENTRIES, IdempotencyStats::entries).register(meterRegistry);
			storeGauge(IdempotencyMeters.STORE_IN_FLIGHT, IdempotencyStats::inFlight).register(meterRegistry);
			storeGauge(IdempotencyMeters.STORE_TOMBSTONES, IdempotencyStats::tombstones).register(meterRegistry);
			storeGauge(IdempotencyMeters.STORE_BYTES, IdempotencyStats::bytes).baseUnit("bytes")
				.register(meterRegistry);
		}

		/** A gauge of the shared snapshot: {@code NaN} while the store cannot be read. */
		private Gauge.Builder<IdempotencyStoreGauges> storeGauge(String name,
				ToDoubleFunction<IdempotencyStats> count) {
			return Gauge.builder(name, this, (gauges) -> gauges.read(count));
		}

		private double read(ToDoubleFunction<IdempotencyStats> count) {
			IdempotencyStats stats = stats();
			return (stats != null) ? count.applyAsDouble(stats) : Double.NaN;
		}

		private @Nullable IdempotencyStats stats() {
			long now = this.clock.nanoTime();
			Snapshot current = this.snapshot;
			if (current == null || now - current.takenNanos() > SNAPSHOT_NANOS) {
				IdempotencyStats stats;
				try {
					stats = this.store.stats();
				}
				catch (IdempotencyStoreException ex) {
					stats = null;
				}
				current = new Snapshot(stats, now);
				this.snapshot = current;
			}
			return current.stats();
		}

		private record Snapshot(@Nullable IdempotencyStats stats, long takenNanos) {
		}

	}

}
