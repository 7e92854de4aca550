package io.github.mcpgateway.quota;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.mcpgateway.clock.GatewayClock;

/**
 * Wires the quota stage and its store ({@code gateway.quota.store}); its place in the
 * pipeline is set by the pipeline configuration.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(QuotaProperties.class)
class QuotaConfiguration {

	@Bean
	QuotaStage quotaStage(QuotaStore store, MeterRegistry meterRegistry, QuotaProperties properties) {
		return new QuotaStage(store, new QuotaMeters(meterRegistry),
				properties.onStoreFailure() == QuotaProperties.OnStoreFailure.ALLOW);
	}

	@Bean
	QuotaInspector quotaInspector(QuotaStore store) {
		return new QuotaInspector(store);
	}

	/** {@code gateway.quota.store: memory}, the default. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(prefix = "gateway.quota", name = "store", havingValue = "memory", matchIfMissing = true)
	static class Memory {

		@Bean
		MemoryQuotaStore quotaStore(GatewayClock clock) {
			return new MemoryQuotaStore(clock);
		}

	}

	/** {@code gateway.quota.store: redis}: buckets shared by every replica. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(prefix = "gateway.quota", name = "store", havingValue = "redis")
	static class Redis {

		@Bean
		RedisQuotaStore quotaStore(StringRedisTemplate redis, QuotaProperties properties) {
			return new RedisQuotaStore(redis, properties.redis().keyPrefix());
		}

	}

}
