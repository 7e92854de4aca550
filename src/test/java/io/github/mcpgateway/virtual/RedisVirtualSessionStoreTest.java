package io.github.mcpgateway.virtual;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.session.SessionProperties;
import io.github.mcpgateway.session.SessionStoreException;
import io.github.mcpgateway.support.MutableClock;
import io.github.mcpgateway.support.RedisServer;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The Redis virtual session store against a real redis-server: the contract, where time
 * passes by shortening every session's TTL, and what only Redis does (keys, touch
 * interval, unreadable values, outages).
 */
class RedisVirtualSessionStoreTest extends VirtualSessionStoreContractTests {

	private static final RedisServer redis = RedisServer.start();

	private static LettuceConnectionFactory connections;

	private static StringRedisTemplate template;

	private final McpPrincipal alice = new McpPrincipal("alice", "cli", "blue");

	private final VirtualSession session = new VirtualSession("uid-workspace", this.alice, "2025-06-18", "{}",
			Map.of("stream", new MemberSession("member-1", "2025-06-18", "{}")));

	@BeforeAll
	static void connect() {
		connections = redis.connect();
		template = new StringRedisTemplate(connections);
	}

	@AfterAll
	static void disconnect() {
		connections.destroy();
		redis.close();
	}

	@BeforeEach
	void clean() {
		template.delete(template.keys("*"));
	}

	@Override
	protected VirtualSessionStore createStore(SessionProperties properties, MutableClock clock) {
		return new RedisVirtualSessionStore(template, properties, new SimpleMeterRegistry(), clock);
	}

	/** Redis expires on its own clock: every session's TTL is shortened instead. */
	@Override
	protected void elapse(Duration duration) {
		for (String key : template.keys("*")) {
			Long ttl = template.getExpire(key, TimeUnit.MILLISECONDS);
			if (ttl != null && ttl > duration.toMillis()) {
				template.expire(key, Duration.ofMillis(ttl - duration.toMillis()));
			}
			else {
				template.delete(key);
			}
		}
		this.clock.advance(duration);
	}

	@Test
	void aSessionIsOneKeyUnderTheSessionPrefixAndItsOwnSegmentNamedByAHashOfItsIdWithTheIdleTimeoutAsTtl() {
		RedisVirtualSessionStore store = store(Duration.ofHours(1), Duration.ofMinutes(1));

		String id = store.open(this.session);

		Set<String> keys = template.keys("*");
		assertThat(keys).singleElement()
			.satisfies((key) -> assertThat(key).startsWith("test:virtual:").doesNotContain(id).hasSize(13 + 64));
		String key = keys.iterator().next();
		assertThat(template.opsForValue().get(key)).doesNotContain(id)
			.contains("\"principal\":{\"human\":\"alice\",\"agent\":\"cli\",\"team\":\"blue\"}")
			.contains("\"member-1\"");
		assertThat(template.getExpire(key)).isBetween(3590L, 3600L);
	}

	@Test
	void idleTimeoutIsRenewedByTheOwnerAtMostOncePerTouchInterval() {
		RedisVirtualSessionStore store = store(Duration.ofSeconds(30), Duration.ofMillis(1500));
		String id = store.open(this.session);
		String key = template.keys("test:virtual:*").iterator().next();
		template.expire(key, Duration.ofSeconds(20));

		store.find(id, "uid-workspace", new McpPrincipal("bob", null, null));
		assertThat(template.getExpire(key)).as("a stranger's look-up renews nothing").isLessThanOrEqualTo(20);
		store.find(id, "uid-workspace", this.alice);
		assertThat(template.getExpire(key)).as("older than the touch interval: renewed").isGreaterThan(28);

		template.expire(key, Duration.ofMillis(29_500));
		store.find(id, "uid-workspace", this.alice);
		assertThat(template.getExpire(key, TimeUnit.MILLISECONDS)).as("younger than the touch interval: left alone")
			.isLessThanOrEqualTo(29_500);
	}

	@Test
	void unreadableValueIsAnUnknownSessionNotAnError() {
		RedisVirtualSessionStore store = store(Duration.ofHours(1), Duration.ofMinutes(1));
		String id = store.open(this.session);
		template.opsForValue().set(template.keys("test:virtual:*").iterator().next(), "{not json");

		assertThat(store.find(id, "uid-workspace", this.alice)).isNull();
	}

	@Test
	void unreachableRedisFailsFindAndKeepsOpenedSessionsPendingUntilItAnswers() {
		LettuceConnectionFactory nowhere = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", 1));
		nowhere.afterPropertiesSet();
		nowhere.start();
		try {
			RedisVirtualSessionStore store = new RedisVirtualSessionStore(new StringRedisTemplate(nowhere),
					properties(Duration.ofHours(1), Duration.ofMinutes(1)), new SimpleMeterRegistry(), this.clock);

			String id = store.open(this.session);
			assertThat(store.pending()).isEqualTo(1);
			assertThatExceptionOfType(SessionStoreException.class)
				.isThrownBy(() -> store.find(id, "uid-workspace", this.alice));
			VirtualSession renewed = this.session.with("stream", new MemberSession("member-2", "2025-06-18", "{}"));
			store.update(id, renewed);
			assertThat(store.pending()).isEqualTo(1);
			assertThat(store.remove(id)).isEqualTo(renewed);
			assertThat(store.pending()).isZero();
		}
		finally {
			nowhere.destroy();
		}
	}

	@Test
	void aSessionOpenedWhileRedisWasDownIsWrittenByTheMaintenanceOnceItAnswers() {
		RedisVirtualSessionStore store = store(Duration.ofHours(1), Duration.ofMinutes(1));
		redis.stop();
		String id;
		try {
			id = store.open(this.session);
			assertThat(store.pending()).isEqualTo(1);
		}
		finally {
			redis.restart();
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			store.maintain();
			return store.pending() == 0;
		});

		RedisVirtualSessionStore other = store(Duration.ofHours(1), Duration.ofMinutes(1));
		assertThat(other.find(id, "uid-workspace", this.alice)).as("another replica finds it").isEqualTo(this.session);
	}

	private RedisVirtualSessionStore store(Duration idle, Duration touch) {
		return new RedisVirtualSessionStore(template, properties(idle, touch), new SimpleMeterRegistry(),
				new MutableClock());
	}

	private static SessionProperties properties(Duration idle, Duration touch) {
		return new SessionProperties(SessionProperties.StoreType.REDIS, 100, 100, idle,
				new SessionProperties.Redis("test:", touch));
	}

}
