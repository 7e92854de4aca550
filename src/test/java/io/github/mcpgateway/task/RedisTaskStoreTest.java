package io.github.mcpgateway.task;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.redis.RedisOutage;
import io.github.mcpgateway.support.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** The Redis task store against a real redis-server, and its outage rules. */
class RedisTaskStoreTest extends TaskStoreContractTests {

	private static final RedisServer redis = RedisServer.start();

	private static LettuceConnectionFactory connections;

	private static StringRedisTemplate template;

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

	@Override
	protected TaskStore createStore(TaskProperties properties, GatewayClock clock) {
		template.execute((org.springframework.data.redis.core.RedisCallback<Object>) (connection) -> {
			connection.serverCommands().flushAll();
			return null;
		});
		return new RedisTaskStore(template, properties, clock, new SimpleMeterRegistry());
	}

	@Test
	void storedTaskIdsAreHashed() {
		bind(this.alice, "visible-task-id-123", "uid:a", Duration.ofMinutes(5));

		assertThat(rawContents()).isNotEmpty().noneMatch((text) -> text.contains("visible-task-id-123"));
	}

	private Set<String> rawContents() {
		Set<String> contents = new HashSet<>();
		for (String key : template.keys("*")) {
			contents.add(key);
			if ("string".equals(template.type(key).code())) {
				contents.add(template.opsForValue().get(key));
			}
			else {
				template.opsForZSet().range(key, 0, -1).forEach(contents::add);
			}
		}
		return contents;
	}

	@Test
	void reservationOfAReplicaThatDiedLapsesAfterItsLease() {
		TaskProperties lease = new TaskProperties(Duration.ofHours(1), 1, 100, properties(1, 1).maxReplySize(),
				new TaskProperties.Redis("{test}:task:", Duration.ofSeconds(30)));
		this.store = createStore(lease, this.clock);
		assertThat(this.store.reserve(this.alice)).isNotNull();
		assertThat(this.store.reserve(this.alice)).isNull();

		this.clock.advance(Duration.ofSeconds(31));

		assertThat(this.store.reserve(this.alice)).isNotNull();
	}

	@Test
	void redisDownFailsLookupsClosedKeepsBindingsMadeMeanwhileAndWritesThemOnceBack() {
		try (RedisServer own = RedisServer.start()) {
			LettuceConnectionFactory rejecting = own.connect();
			try {
				RedisTaskStore store = new RedisTaskStore(new StringRedisTemplate(rejecting), properties(3, 5),
						this.clock, new SimpleMeterRegistry());
				TaskStore.Reservation reservation = store.reserve(this.alice);
				own.stop();

				assertThatExceptionOfType(TaskStoreException.class).isThrownBy(() -> store.reserve(this.alice));
				assertThatExceptionOfType(TaskStoreException.class).isThrownBy(() -> store.find("uid:a", "t-0"));
				assertThatExceptionOfType(TaskStoreException.class)
					.isThrownBy(() -> store.owned("uid:a", this.alice, List.of("t-0")));
				// The upstream answered while Redis was down: kept here, served here.
				TaskBinding binding = new TaskBinding("uid:a", "test/a", this.alice, "research", null,
						this.clock.instant().plus(Duration.ofMinutes(5)));
				store.bind(reservation, "t-1", binding);
				assertThat(store.pending()).isEqualTo(1);
				assertThat(store.find("uid:a", "t-1")).isEqualTo(binding);

				own.restart();
				await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
					store.maintain();
					assertThat(store.pending()).isZero();
				});
				LettuceConnectionFactory fresh = own.connect();
				try {
					RedisTaskStore other = new RedisTaskStore(new StringRedisTemplate(fresh), properties(3, 5),
							this.clock, new SimpleMeterRegistry());
					assertThat(other.find("uid:a", "t-1")).isEqualTo(binding);
				}
				finally {
					fresh.destroy();
				}
				assertThatExceptionOfType(TaskStoreException.class)
					.as("just after an outage an unknown task may be pending elsewhere")
					.isThrownBy(() -> store.find("uid:a", "t-unknown"));
				this.clock.advance(RedisOutage.RECOVERY.plusSeconds(1));
				assertThat(store.find("uid:a", "t-unknown")).isNull();
			}
			finally {
				rejecting.destroy();
			}
		}
	}

	@Test
	void bindingWrittenByOneReplicaIsFoundByAnother() {
		bind(this.alice, "t-1", "uid:a", Duration.ofMinutes(5));

		RedisTaskStore other = new RedisTaskStore(template, properties(3, 5), this.clock, new SimpleMeterRegistry());

		assertThat(other.find("uid:a", "t-1").principal()).isEqualTo(this.alice);
		assertThat(other.owned("uid:a", this.alice, List.of("t-1"))).containsExactly("t-1");
	}

}
