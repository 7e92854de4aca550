package io.github.mcpgateway.idempotency.redis;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.idempotency.IdempotencyProperties;
import io.github.mcpgateway.idempotency.IdempotencyStoreHealthIndicator;
import io.github.mcpgateway.poll.PeriodicTask;

/** The store shared by replicas ({@code gateway.idempotency.store: redis}). */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "gateway.idempotency", name = "store", havingValue = "redis")
class RedisStoreConfiguration {

	@Bean
	RedisIdempotencyStore idempotencyStore(StringRedisTemplate redis, IdempotencyProperties properties,
			GatewayClock clock, MeterRegistry meterRegistry) {
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

}
