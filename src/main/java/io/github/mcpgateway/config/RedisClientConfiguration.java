package io.github.mcpgateway.config;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.resource.Delay;

import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Redis client shared by the idempotency, session, task and quota stores (whichever
 * of them is {@code redis}). Spring Boot builds it from {@code spring.data.redis.*}; it
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

	/**
	 * Reconnects within about a second of Redis answering again (jittered from 100 ms, at
	 * most 1 s), not Lettuce's default of up to 30 s: every replica should see Redis back
	 * at about the same time, so that a session bound during an outage is written by its
	 * replica before the others look for it (see {@code redis.RedisOutage}, which the
	 * session and task stores share).
	 */
	@Bean
	ClientResourcesBuilderCustomizer reconnectWithinASecond() {
		return (resources) -> resources.reconnectDelay(
				Delay.equalJitter(Duration.ofMillis(100), Duration.ofSeconds(1), 100, TimeUnit.MILLISECONDS));
	}

}
