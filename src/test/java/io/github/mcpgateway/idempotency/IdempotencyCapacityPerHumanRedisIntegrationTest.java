package io.github.mcpgateway.idempotency;

import org.junit.jupiter.api.AfterAll;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import io.github.mcpgateway.support.RedisServer;

/**
 * Issue 36, finding 3, from outside, with the shared store: the per-human budget holds in
 * the Redis scripts as in the in-process store. The stage reads the reply cap from the
 * active store's limits, so the Redis block's cap is lowered too.
 */
@TestPropertySource(
		properties = { "gateway.idempotency.store=redis", "gateway.idempotency.redis.limits.max-reply-size=1KB" })
class IdempotencyCapacityPerHumanRedisIntegrationTest extends IdempotencyCapacityPerHumanIntegrationTest {

	private static final RedisServer redis = RedisServer.start();

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> "127.0.0.1");
		registry.add("spring.data.redis.port", redis::port);
	}

	@AfterAll
	static void stopRedis() {
		redis.close();
	}

}
