package io.github.mcpgateway.idempotency.memory;

import java.time.Clock;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.idempotency.IdempotencyProperties;
import io.github.mcpgateway.idempotency.IdempotencyStoreHealthIndicator;

/**
 * The bounded in-process store, the default ({@code gateway.idempotency.store: memory}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "gateway.idempotency", name = "store", havingValue = "memory", matchIfMissing = true)
class MemoryStoreConfiguration {

	@Bean
	InMemoryIdempotencyStore idempotencyStore(IdempotencyProperties properties, Clock clock) {
		return new InMemoryIdempotencyStore(properties.limits(), clock);
	}

	@Bean
	IdempotencyStoreHealthIndicator idempotencyStoreHealthIndicator(InMemoryIdempotencyStore store) {
		return new IdempotencyStoreHealthIndicator(store, "memory", () -> true);
	}

}
