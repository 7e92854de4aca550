package io.github.mcpgateway.idempotency.redis;

/**
 * The replica rules of {@link RedisReplicasIntegrationTest} with the Jedis driver
 * ({@code spring.data.redis.client-type=jedis}), the documented option that costs less
 * CPU per keyed call (docs/performance.md): the same single execution across replicas,
 * the same quotas, the same fail-closed outage and recovery without a restart.
 */
class JedisReplicasIntegrationTest extends RedisReplicasIntegrationTest {

	@Override
	protected String clientType() {
		return "jedis";
	}

}
