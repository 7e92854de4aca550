package io.github.mcpgateway.config;

import io.lettuce.core.ClientOptions;

import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Redis client shared by the idempotency store and the session store (whichever of
 * them is {@code redis}). Spring Boot builds it from {@code spring.data.redis.*}; it
 * connects on first use, so a gateway with only memory stores never opens a connection.
 */
@Configuration(proxyBeanMethods = false)
class RedisClientConfiguration {

	/**
	 * Commands fail at once while Redis is disconnected instead of queueing until the
	 * command timeout: a request that needs Redis should get its 503 quickly. Lettuce
	 * reconnects on its own.
	 */
	@Bean
	LettuceClientOptionsBuilderCustomizer failFastWhileDisconnected() {
		// Adjusts the options Spring Boot built (timeouts, SSL bundle, cluster refresh),
		// keeps them.
		return (options) -> options.autoReconnect(true)
			.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
	}

}
