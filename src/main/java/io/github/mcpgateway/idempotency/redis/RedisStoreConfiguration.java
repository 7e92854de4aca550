package io.github.mcpgateway.idempotency.redis;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.annotation.Value;
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

	/**
	 * The store, whose fence after a loss lasts as long as a forgotten key could come
	 * back (ADR 0025): the longest an entry lives once settled (the TTL, or the longest
	 * task life, {@code gateway.task.max-ttl}, for a call that created a task), plus the
	 * lease and one renewal interval (a call in flight at the loss on a replica that died
	 * before it could adopt the entry again).
	 */
	@Bean
	RedisIdempotencyStore idempotencyStore(StringRedisTemplate redis, IdempotencyProperties properties,
			GatewayClock clock, MeterRegistry meterRegistry,
			@Value("${gateway.task.max-ttl:1h}") Duration longestTaskLife) {
		IdempotencyProperties.Redis store = properties.redis();
		Duration longestLife = (longestTaskLife.compareTo(store.limits().ttl()) > 0) ? longestTaskLife
				: store.limits().ttl();
		return new RedisIdempotencyStore(redis, store, longestLife.plus(store.lease()).plus(store.leaseRenewInterval()),
				clock, meterRegistry);
	}

	@Bean
	PeriodicTask idempotencyLeaseRenewal(RedisIdempotencyStore store, IdempotencyProperties properties) {
		return new PeriodicTask("idempotency-lease-renewal", properties.redis().leaseRenewInterval(),
				properties.redis().leaseRenewInterval(), store::renewLeases);
	}

	@Bean
	IdempotencyStoreHealthIndicator idempotencyStoreHealthIndicator(RedisIdempotencyStore store,
			StringRedisTemplate redis) {
		return new IdempotencyStoreHealthIndicator(store, "redis", store::ping,
				new RedisDurability(redis, store.fenceLength()));
	}

}
