package io.github.mcpgateway.idempotency;

import java.time.Clock;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.idempotency.memory.InMemoryIdempotencyStore;

/** Wires the Idempotency-Key stage and its store. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IdempotencyProperties.class)
class IdempotencyConfiguration {

	@Bean
	IdempotencyStore idempotencyStore(IdempotencyProperties properties, Clock clock) {
		return new InMemoryIdempotencyStore(properties.limits(), clock);
	}

	@Bean
	IdempotencyKeyHeaderFilter idempotencyKeyHeaderFilter() {
		return new IdempotencyKeyHeaderFilter();
	}

	@Bean
	IdempotencyFilter idempotencyFilter(IdempotencyStore store, GatewayErrorRenderer errorRenderer,
			IdempotencyProperties properties) {
		return new IdempotencyFilter(store, errorRenderer, properties);
	}

}
