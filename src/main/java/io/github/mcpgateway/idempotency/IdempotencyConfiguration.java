package io.github.mcpgateway.idempotency;

import java.time.Clock;

import io.lettuce.core.ClientOptions;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.proxy.StreamingMediaTypes;
import io.github.mcpgateway.idempotency.memory.InMemoryIdempotencyStore;
import io.github.mcpgateway.idempotency.redis.RedisIdempotencyStore;
import io.github.mcpgateway.poll.PeriodicTask;

/**
 * Wires the Idempotency-Key stage and the store {@code gateway.idempotency.store} names.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IdempotencyProperties.class)
class IdempotencyConfiguration {

	@Bean
	IdempotencyKeyHeaderFilter idempotencyKeyHeaderFilter() {
		return new IdempotencyKeyHeaderFilter();
	}

	@Bean
	IdempotencyFilter idempotencyFilter(IdempotencyStore store, GatewayErrorRenderer errorRenderer,
			IdempotencyProperties properties, StreamingMediaTypes streamingMediaTypes) {
		return new IdempotencyFilter(store, errorRenderer, properties, streamingMediaTypes);
	}

	@Bean
	IdempotencyEndpoint idempotencyEndpoint(IdempotencyStore store, IdempotencyProperties properties,
			MeterRegistry meterRegistry, ApplicationEventPublisher events, Clock clock) {
		return new IdempotencyEndpoint(store, properties.store().name().toLowerCase(java.util.Locale.ROOT),
				meterRegistry, events, clock);
	}

	@Bean
	IdempotencyStoreGauges idempotencyStoreGauges(IdempotencyStore store, MeterRegistry meterRegistry) {
		return new IdempotencyStoreGauges(store, meterRegistry);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(prefix = "gateway.idempotency", name = "store", havingValue = "memory",
			matchIfMissing = true)
	static class MemoryStoreConfiguration {

		@Bean
		InMemoryIdempotencyStore idempotencyStore(IdempotencyProperties properties, Clock clock) {
			return new InMemoryIdempotencyStore(properties.limits(), clock);
		}

		@Bean
		IdempotencyStoreHealthIndicator idempotencyStoreHealthIndicator(InMemoryIdempotencyStore store) {
			return new IdempotencyStoreHealthIndicator(store, "memory", () -> true);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(prefix = "gateway.idempotency", name = "store", havingValue = "redis")
	static class RedisStoreConfiguration {

		@Bean
		RedisIdempotencyStore idempotencyStore(StringRedisTemplate redis, IdempotencyProperties properties, Clock clock,
				MeterRegistry meterRegistry) {
			return new RedisIdempotencyStore(redis, properties.redis(), clock, meterRegistry);
		}

		@Bean
		PeriodicTask idempotencyLeaseRenewal(RedisIdempotencyStore store, IdempotencyProperties properties) {
			return new PeriodicTask("idempotency-lease-renewal", properties.redis().leaseRenewInterval(),
					properties.redis().leaseRenewInterval(), store::renewLeases);
		}

		@Bean
		IdempotencyStoreHealthIndicator idempotencyStoreHealthIndicator(RedisIdempotencyStore store) {
			return new IdempotencyStoreHealthIndicator(store, "redis", store::ping);
		}

		/**
		 * Commands fail at once while Redis is disconnected instead of queueing until the
		 * command timeout: a keyed request should get its 503 quickly. Lettuce reconnects
		 * on its own.
		 */
		@Bean
		LettuceClientOptionsBuilderCustomizer failFastWhileDisconnected() {
			// Adjusts the options Spring Boot built (timeouts, SSL bundle, cluster
			// refresh), keeps them.
			return (options) -> options.autoReconnect(true)
				.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
		}

	}

	/** Store counts as gauges, read on each scrape. */
	static final class IdempotencyStoreGauges {

		IdempotencyStoreGauges(IdempotencyStore store, MeterRegistry meterRegistry) {
			Gauge.builder("mcp.gateway.idempotency.store.entries", store, (s) -> safe(s, 0)).register(meterRegistry);
			Gauge.builder("mcp.gateway.idempotency.store.in.flight", store, (s) -> safe(s, 1)).register(meterRegistry);
			Gauge.builder("mcp.gateway.idempotency.store.tombstones", store, (s) -> safe(s, 2)).register(meterRegistry);
			Gauge.builder("mcp.gateway.idempotency.store.bytes", store, (s) -> safe(s, 3))
				.baseUnit("bytes")
				.register(meterRegistry);
		}

		private static double safe(IdempotencyStore store, int which) {
			try {
				IdempotencyStats stats = store.stats();
				return switch (which) {
					case 0 -> stats.entries();
					case 1 -> stats.inFlight();
					case 2 -> stats.tombstones();
					default -> stats.bytes();
				};
			}
			catch (IdempotencyStoreException ex) {
				return Double.NaN;
			}
		}

	}

}
