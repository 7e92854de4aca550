package io.github.mcpgateway.quota;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.mcpgateway.support.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** The Redis store against a real redis-server: the contract, its keys, an outage. */
class RedisQuotaStoreTest extends QuotaStoreContractTests {

	private static final RedisServer redis = RedisServer.start();

	private static final StringRedisTemplate template = redis.template();

	@AfterAll
	static void stopRedis() {
		redis.close();
	}

	@Override
	protected QuotaStore createStore() {
		redis.flushAll();
		return new RedisQuotaStore(template, "{mcp-gateway}:quota:");
	}

	@Override
	protected void pass(Duration duration) throws InterruptedException {
		Thread.sleep(duration.toMillis());
	}

	@Test
	void keysNameNoIdentityAndExpireWhenTheBucketIsFull() {
		QuotaStore store = createStore();
		store.consume(List.of(new QuotaBucket("uid:x|limit|p:alice@example.com/agent-7", 2_000_000_000L, 2)));

		Set<String> keys = template.keys("*");
		assertThat(keys).hasSize(1)
			.allSatisfy((key) -> assertThat(key).startsWith("{mcp-gateway}:quota:")
				.doesNotContain("alice")
				.doesNotContain("agent-7"));
		Long ttl = template.getExpire(keys.iterator().next());
		assertThat(ttl).as("seconds until full again").isBetween(1L, 3L);
	}

	@Test
	void aStoppedRedisIsAStoreFailure() {
		QuotaStore store = createStore();
		redis.stop();
		try {
			assertThatExceptionOfType(QuotaStoreException.class)
				.isThrownBy(() -> store.consume(List.of(new QuotaBucket("s|l|s", 1_000_000_000L, 1))))
				.withMessageStartingWith("Quota store failed");
		}
		finally {
			redis.restart();
		}
		await().atMost(Duration.ofSeconds(10))
			.ignoreExceptions()
			.alias("back without a restart of the gateway")
			.until(() -> store.consume(List.of(new QuotaBucket("s|l|s", 1_000_000_000L, 1))).allowed());
	}

}
