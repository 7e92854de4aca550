package io.github.mcpgateway.session;

import java.time.Duration;
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
import io.github.mcpgateway.support.MutableClock;
import io.github.mcpgateway.support.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The Redis session store against a real redis-server: the contract, where time passes by
 * shortening every binding's TTL, and what only Redis does (touch interval, unreadable
 * values, outages).
 */
class RedisSessionStoreTest extends SessionStoreContractTests {

	private static final RedisServer redis = RedisServer.start();

	private static LettuceConnectionFactory connections;

	private static StringRedisTemplate template;

	private final SessionBinding alice = new SessionBinding("uid:echo", "test/echo",
			new McpPrincipal("alice", "cli", "blue"));

	private final SessionBinding bob = new SessionBinding("uid:echo", "test/echo", new McpPrincipal("bob", null, null));

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
		template.delete(contractKeys());
	}

	@Override
	protected SessionStore createStore(SessionProperties properties, MutableClock clock) {
		return new RedisSessionStore(template, properties, new SimpleMeterRegistry(), clock);
	}

	/** Redis expires on its own clock: every binding's TTL is shortened instead. */
	@Override
	protected void elapse(Duration duration) {
		for (String key : contractKeys()) {
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

	private static Set<String> contractKeys() {
		return template.keys(properties().redis().keyPrefix() + "*");
	}

	@Test
	void idleTimeoutIsRenewedByTheOwnerAtMostOncePerTouchInterval() throws InterruptedException {
		RedisSessionStore store = store(Duration.ofSeconds(30), Duration.ofMillis(1500));
		store.bind("s-touch", this.alice);
		String key = template.keys("test:*")
			.stream()
			.filter((k) -> !k.startsWith("test:human:"))
			.findFirst()
			.orElseThrow();
		template.expire(key, Duration.ofSeconds(20));

		store.use("s-touch", this.bob);
		assertThat(template.getExpire(key)).as("a stranger's use renews nothing").isLessThanOrEqualTo(20);
		store.use("s-touch", this.alice);
		assertThat(template.getExpire(key)).as("older than the touch interval: renewed").isGreaterThan(28);

		store.use("s-touch", this.alice);
		template.expire(key, Duration.ofMillis(29_500));
		store.use("s-touch", this.alice);
		// In milliseconds: TTL in seconds rounds 29.5 s up to 30.
		assertThat(template.getExpire(key, TimeUnit.MILLISECONDS)).as("younger than the touch interval: left alone")
			.isLessThanOrEqualTo(29_500);
		store.remove("s-touch");
	}

	@Test
	void unreadableValueIsAnUnknownSessionNotAnError() {
		RedisSessionStore store = store(Duration.ofHours(1), Duration.ofMinutes(1));
		store.bind("s-garbage", this.alice);
		String key = template.keys("test:*")
			.stream()
			.filter((k) -> !k.startsWith("test:human:"))
			.findFirst()
			.orElseThrow();
		template.opsForValue().set(key, "{not json");

		assertThat(store.use("s-garbage", this.alice)).isNull();
		template.delete(key);
	}

	@Test
	void unreachableRedisFailsUseAndKeepsBindingsPendingUntilItAnswers() {
		LettuceConnectionFactory nowhere = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", 1));
		nowhere.afterPropertiesSet();
		nowhere.start();
		try {
			RedisSessionStore store = new RedisSessionStore(new StringRedisTemplate(nowhere),
					properties(Duration.ofHours(1), Duration.ofMinutes(1)), new SimpleMeterRegistry(), this.clock);

			assertThat(store.bind("s-down", this.alice)).isTrue();
			assertThat(store.pending()).isEqualTo(1);
			assertThatExceptionOfType(SessionStoreException.class).isThrownBy(() -> store.use("s-down", this.alice));
			assertThat(store.remove("s-down")).isEqualTo(this.alice);
			assertThat(store.pending()).isZero();
		}
		finally {
			nowhere.destroy();
		}
	}

	@Test
	void bindWhenOneHumanFloodsThenOnlyThatHumansOldestBindingsAreDeleted() {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		RedisSessionStore store = new RedisSessionStore(template,
				new SessionProperties(SessionProperties.StoreType.REDIS, 100, 3, Duration.ofHours(1),
						new SessionProperties.Redis("test:", Duration.ofMinutes(1))),
				meters, this.clock);
		store.bind("alice-1", this.alice);
		for (int i = 0; i < 10; i++) {
			this.clock.advance(Duration.ofMillis(1));
			store.bind("bob-" + i, this.bob);
		}

		assertThat(store.use("alice-1", this.alice)).isEqualTo(this.alice);
		assertThat(store.use("bob-6", this.bob)).isNull();
		assertThat(store.use("bob-7", this.bob)).isEqualTo(this.bob);
		assertThat(store.use("bob-9", this.bob)).isEqualTo(this.bob);
		assertThat(meters.get(SessionMeters.EVENTS).tag("event", "dropped_principal_cap").counter().count())
			.isEqualTo(7);
		store.remove("bob-9");
		store.bind("bob-10", this.bob);
		assertThat(store.use("bob-7", this.bob)).as("a removed binding frees its place").isEqualTo(this.bob);
		template.delete(template.keys("test:*"));
	}

	private static RedisSessionStore store(Duration idle, Duration touch) {
		return new RedisSessionStore(template, properties(idle, touch), new SimpleMeterRegistry(), new MutableClock());
	}

	private static SessionProperties properties(Duration idle, Duration touch) {
		return new SessionProperties(SessionProperties.StoreType.REDIS, 100, 100, idle,
				new SessionProperties.Redis("test:", touch));
	}

}
