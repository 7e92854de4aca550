package io.github.mcpgateway.config;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.mock.env.MockEnvironment;

import io.github.mcpgateway.support.GatewayIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Boot's Redis auto-configurations are imported only when a store is
 * {@code redis}: a gateway with memory stores makes no Redis client (the stores that use
 * Redis are tested with a real redis-server elsewhere, through the open gate).
 */
class RedisGateTest extends GatewayIntegrationTest {

	private static final String DATA_REDIS = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration";

	@Autowired
	ApplicationContext context;

	@Test
	void aGatewayWithMemoryStoresHasNoRedisClient() {
		assertThat(post("/mcp/test/echo", validToken(), toolCall(1, "echo")).statusCode()).isEqualTo(200);

		assertThat(this.context.getBeanNamesForType(RedisConnectionFactory.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(StringRedisTemplate.class)).isEmpty();
	}

	@Test
	void theGateOpensForEachStoreThatIsRedisAndOnlyThen() {
		assertThat(matches(new MockEnvironment())).as("no store set").isFalse();
		assertThat(matches(new MockEnvironment().withProperty("gateway.idempotency.store", "memory")
			.withProperty("gateway.session.store", "memory")
			.withProperty("gateway.quota.store", "memory"))).as("every store in memory").isFalse();
		for (String store : RedisGate.STORES) {
			assertThat(matches(new MockEnvironment().withProperty(store, "redis"))).as(store).isTrue();
		}
		assertThat(matches(new MockEnvironment().withProperty("gateway.session.store", "REDIS"))).isTrue();
	}

	@Test
	void aClosedGateLetsEveryOtherAutoConfigurationThrough() {
		RedisGate gate = new RedisGate();
		gate.setEnvironment(new MockEnvironment());

		assertThat(gate.match(new String[] { DATA_REDIS, "org.example.OtherAutoConfiguration", null }, null))
			.containsExactly(false, true, true);
	}

	private static boolean matches(MockEnvironment environment) {
		RedisGate gate = new RedisGate();
		gate.setEnvironment(environment);
		return gate.match(new String[] { DATA_REDIS }, null)[0];
	}

}
