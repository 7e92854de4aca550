package io.github.mcpgateway.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.idempotency.BeginResult;
import io.github.mcpgateway.idempotency.BeginResult.Refusal;
import io.github.mcpgateway.idempotency.IdempotencyProperties;
import io.github.mcpgateway.idempotency.IdempotencyProperties.Limits;
import io.github.mcpgateway.idempotency.IdempotencyStore;
import io.github.mcpgateway.idempotency.IdempotencyStore.TombstoneKind;
import io.github.mcpgateway.idempotency.IdempotencyStoreContractTests;
import io.github.mcpgateway.idempotency.IdempotencyStoreException;
import io.github.mcpgateway.idempotency.StoredReply;
import io.github.mcpgateway.support.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The store contract against a real redis-server, plus what only a shared store has:
 * leases.
 */
class RedisIdempotencyStoreTest extends IdempotencyStoreContractTests {

	/** How long the fence after a loss lasts here (ADR 0025). */
	private static final Duration FENCE = Duration.ofMinutes(6);

	private static final RedisServer server = RedisServer.start();

	private static final LettuceConnectionFactory connections = connect();

	private static final StringRedisTemplate template = new StringRedisTemplate(connections);

	@BeforeEach
	void flush() {
		template.execute((org.springframework.data.redis.core.RedisCallback<Object>) (connection) -> {
			connection.serverCommands().flushAll();
			return null;
		});
	}

	@AfterAll
	static void stopRedis() {
		connections.destroy();
		server.close();
	}

	@Override
	protected IdempotencyStore createStore(Limits limits, GatewayClock clock) {
		return store(limits, clock, Duration.ofSeconds(30));
	}

	@Override
	protected void keepAlive() {
		((RedisIdempotencyStore) this.store).renewLeases();
	}

	private static RedisIdempotencyStore store(Limits limits, GatewayClock clock, Duration lease) {
		return new RedisIdempotencyStore(template,
				new IdempotencyProperties.Redis("{test}:idem:", lease, lease.dividedBy(3), limits), FENCE, clock,
				new SimpleMeterRegistry());
	}

	@Test
	void inFlightEntryWhoseLeaseLapsesBecomesAnOutcomeUnknownTombstone() {
		RedisIdempotencyStore replica = store(Limits.defaults(), this.clock, Duration.ofSeconds(30));
		replica.begin(entry("k", "s", "p"));

		this.clock.advance(Duration.ofSeconds(31));

		assertThat(replica.begin(entry("k", "s", "p"))).isEqualTo(new BeginResult.Refused(Refusal.OUTCOME_UNKNOWN));
		replica.complete(entry("k", "s", "p"), reply("too late"));
		assertThat(replica.begin(entry("k", "s", "p"))).as("a late completion changes nothing")
			.isEqualTo(new BeginResult.Refused(Refusal.OUTCOME_UNKNOWN));
	}

	@Test
	void renewedLeaseKeepsTheEntryInFlight() {
		RedisIdempotencyStore replica = store(Limits.defaults(), this.clock, Duration.ofSeconds(30));
		replica.begin(entry("k", "s", "p"));

		for (int i = 0; i < 5; i++) {
			this.clock.advance(Duration.ofSeconds(20));
			replica.renewLeases();
		}

		assertThat(replica.begin(entry("k", "s", "p"))).isEqualTo(new BeginResult.Refused(Refusal.IN_FLIGHT));
	}

	@Test
	void replayedBodyIsByteForByte() {
		byte[] body = new byte[256];
		for (int i = 0; i < body.length; i++) {
			body[i] = (byte) i;
		}
		this.store.begin(entry("k", "s", "p"));
		this.store.complete(entry("k", "s", "p"), new StoredReply(201, "application/json; charset=\u00e9", body));

		assertThat(this.store.begin(entry("k", "s", "p"))).isInstanceOfSatisfying(BeginResult.Replay.class,
				(replay) -> {
					assertThat(replay.reply().body()).isEqualTo(body);
					assertThat(replay.reply().status()).isEqualTo(201);
					assertThat(replay.reply().contentType()).isEqualTo("application/json; charset=\u00e9");
				});
	}

	@Test
	void concurrentBeginsFromTwoReplicasStartTheKeyOnce() throws Exception {
		RedisIdempotencyStore a = store(Limits.defaults(), GatewayClock.system(), Duration.ofSeconds(30));
		RedisIdempotencyStore b = store(Limits.defaults(), GatewayClock.system(), Duration.ofSeconds(30));
		ExecutorService pool = Executors.newFixedThreadPool(16);
		try {
			List<CompletableFuture<BeginResult>> begins = new ArrayList<>();
			for (int i = 0; i < 64; i++) {
				RedisIdempotencyStore replica = (i % 2 == 0) ? a : b;
				begins.add(CompletableFuture.supplyAsync(() -> replica.begin(entry("k", "s", "p")), pool));
			}
			assertThat(begins.stream().map(CompletableFuture::join).filter(BeginResult.Started.class::isInstance))
				.hasSize(1);
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void quotasHoldAcrossReplicasUnderConcurrentLoad() {
		RedisIdempotencyStore a = store(Limits.defaults(), GatewayClock.system(), Duration.ofSeconds(30));
		RedisIdempotencyStore b = store(Limits.defaults(), GatewayClock.system(), Duration.ofSeconds(30));
		ExecutorService pool = Executors.newFixedThreadPool(16);
		try {
			List<CompletableFuture<BeginResult>> begins = new ArrayList<>();
			for (int i = 0; i < 40; i++) {
				RedisIdempotencyStore replica = (i % 2 == 0) ? a : b;
				String key = "k" + i;
				String scope = "s" + (i % 5);
				begins.add(CompletableFuture.supplyAsync(() -> replica.begin(entry(key, scope, "p")), pool));
			}
			long started = begins.stream()
				.map(CompletableFuture::join)
				.filter(BeginResult.Started.class::isInstance)
				.count();
			assertThat(started).as("per-principal in-flight cap, across both replicas").isEqualTo(8);
			assertThat(a.stats().inFlight()).isEqualTo(8);
		}
		finally {
			pool.shutdownNow();
		}
	}

	/**
	 * A replica of a version without the per-human level removes entries without
	 * uncounting them from their human: the counters then say too much. They are rebuilt
	 * before they refuse anyone, from the entries that still exist.
	 */
	@Test
	void humanCountersLeftTooHighByAnOlderReplicaAreRecountedBeforeTheyRefuse() {
		for (int i = 0; i < 2; i++) {
			this.store.begin(entry("t" + i, "s", "alice/agent", "alice"));
			this.store.tombstone(entry("t" + i, "s", "alice/agent", "alice"), TombstoneKind.NOT_REPLAYABLE);
		}
		template.opsForHash().increment("{test}:idem:h:alice", "tombstones", 40);
		template.opsForHash().increment("{test}:idem:h:alice", "entries", 200);

		assertThat(this.store.begin(entry("next", "s2", "alice/agent2", "alice")))
			.isInstanceOf(BeginResult.Started.class);
		assertThat(this.store.stats().fullestHumanBudget()).as("2 tombstones + 1 in flight").isEqualTo(3);
		assertThat(this.store.begin(entry("t0", "s", "alice/agent", "alice")))
			.isEqualTo(new BeginResult.Refused(Refusal.NOT_REPLAYABLE));

		template.opsForHash().increment("{test}:idem:h:alice", "entries", 200);
		assertThat(this.store.begin(entry("after", "s3", "alice/agent3", "alice")))
			.as("an entry count left too high is recounted too")
			.isInstanceOf(BeginResult.Started.class);
	}

	/** An entry an older version wrote has no human; it counts nowhere at that level. */
	@Test
	void entryWithoutAHumanFromAnOlderReplicaCompletesAndExpiresCleanly() {
		this.store.begin(entry("old", "s", "p", "alice"));
		template.opsForHash().delete("{test}:idem:e:old", "human");
		template.delete("{test}:idem:h:alice");

		this.store.complete(entry("old", "s", "p", "alice"), reply("r"));
		this.clock.advance(Duration.ofMinutes(6));

		assertThat(this.store.stats().entries()).isZero();
		assertThat(template.hasKey("{test}:idem:h:alice")).isFalse();
		assertThat(this.store.begin(entry("old", "s", "p", "alice"))).isInstanceOf(BeginResult.Started.class);
	}

	/** ADR 0025: a store emptied (restart without persistence, FLUSHALL) forgets keys. */
	@Test
	void storeThatForgotEveryKeyRefusesKeysItDoesNotHoldUntilTheFenceEnds() {
		RedisIdempotencyStore replica = store(Limits.defaults(), this.clock, Duration.ofSeconds(30));
		replica.begin(entry("ran", "s", "p"));
		replica.complete(entry("ran", "s", "p"), reply("once"));

		server.flushAll();
		BeginResult retry = replica.begin(entry("ran", "s", "p"));
		BeginResult fresh = replica.begin(entry("new", "s", "p"));

		assertThat(retry).isInstanceOfSatisfying(BeginResult.Refused.class, (refused) -> {
			assertThat(refused.refusal()).isEqualTo(Refusal.FENCED);
			assertThat(refused.retryAfter()).isEqualTo(FENCE);
			assertThat(refused.error().code()).isEqualTo("idempotency_store_recovering");
			assertThat(refused.error().retryAfter()).isEqualTo(FENCE);
		});
		assertThat(fresh).isInstanceOf(BeginResult.Refused.class);
		assertThat(replica.fence()).isNotNull().satisfies((fence) -> assertThat(fence.cause()).isEqualTo("emptied"));

		this.clock.advance(FENCE.minusSeconds(1));
		assertThat(replica.begin(entry("ran", "s", "p"))).isEqualTo(BeginResult.Refused.fenced(Duration.ofSeconds(1)));
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(replica.begin(entry("ran", "s", "p"))).isInstanceOf(BeginResult.Started.class);
		assertThat(replica.fence()).isNull();
	}

	/**
	 * A replica that started after the loss cannot tell; the first one that knew the old
	 * epoch starts the fence, and keys begun before it behave normally.
	 */
	@Test
	void lossFirstMetByAReplicaThatKnewNothingIsFencedByTheFirstThatKnew() {
		RedisIdempotencyStore knew = store(Limits.defaults(), this.clock, Duration.ofSeconds(30));
		knew.begin(entry("before", "s", "p"));
		knew.release(entry("before", "s", "p"));
		server.flushAll();
		RedisIdempotencyStore started = store(Limits.defaults(), this.clock, Duration.ofSeconds(30));

		assertThat(started.begin(entry("unaware", "s", "p"))).isInstanceOf(BeginResult.Started.class);
		assertThat(knew.begin(entry("later", "s", "p"))).isEqualTo(BeginResult.Refused.fenced(FENCE));
		assertThat(started.begin(entry("other", "s", "p"))).isEqualTo(BeginResult.Refused.fenced(FENCE));
		assertThat(started.begin(entry("unaware", "s", "p"))).as("a key the store holds is answered as ever")
			.isEqualTo(new BeginResult.Refused(Refusal.IN_FLIGHT));
		assertThat(knew.fence().cause()).isEqualTo("replaced");
	}

	@Test
	void callInFlightWhenTheStoreForgotItGetsItsEntryBackAndItsRetryIsReplayed() {
		RedisIdempotencyStore running = store(Limits.defaults(), this.clock, Duration.ofSeconds(30));
		RedisIdempotencyStore other = store(Limits.defaults(), this.clock, Duration.ofSeconds(30));
		running.begin(entry("long", "s", "p"));
		other.begin(entry("warm", "s", "p"));

		server.flushAll();
		assertThat(other.begin(entry("long", "s", "p"))).as("until the running replica adopts it")
			.isEqualTo(BeginResult.Refused.fenced(FENCE));
		running.renewLeases();

		assertThat(other.begin(entry("long", "s", "p"))).isEqualTo(new BeginResult.Refused(Refusal.IN_FLIGHT));
		running.complete(entry("long", "s", "p"), reply("ran once"));
		assertThat(other.begin(entry("long", "s", "p"))).isInstanceOf(BeginResult.Replay.class);
	}

	/**
	 * A failover that lost a replica's latest begins: its mark in the store went back.
	 */
	@Test
	void beginsLostByAFailoverAreFoundByTheReplicaThatMadeThem() {
		RedisIdempotencyStore replica = store(Limits.defaults(), this.clock, Duration.ofSeconds(30));
		replica.begin(entry("kept", "s", "p"));
		replica.complete(entry("kept", "s", "p"), reply("kept"));
		replica.begin(entry("lost", "s", "p"));
		replica.complete(entry("lost", "s", "p"), reply("lost"));
		// What the promoted replica has: the entry and its mark increment never arrived.
		for (Object field : template.opsForHash().keys("{test}:idem:marks")) {
			template.opsForHash().increment("{test}:idem:marks", field, -1);
		}
		template.delete("{test}:idem:e:" + entry("lost", "s", "p").entryKey());

		assertThat(replica.begin(entry("lost", "s", "p"))).isEqualTo(BeginResult.Refused.fenced(FENCE));
		assertThat(replica.fence().cause()).isEqualTo("writes_lost");
		assertThat(replica.begin(entry("kept", "s", "p"))).isInstanceOf(BeginResult.Replay.class);
	}

	@Test
	void operatorEndsTheFenceAndAReplicaThatLearnsOfTheLossLaterDoesNotStartItAgain() {
		RedisIdempotencyStore first = store(Limits.defaults(), this.clock, Duration.ofSeconds(30));
		RedisIdempotencyStore late = store(Limits.defaults(), this.clock, Duration.ofSeconds(30));
		first.begin(entry("a", "s", "p"));
		late.begin(entry("b", "s", "p"));
		server.flushAll();
		assertThat(first.begin(entry("a", "s", "p"))).isInstanceOf(BeginResult.Refused.class);

		assertThat(first.endFence()).isTrue();

		assertThat(first.endFence()).as("no fence holds any more").isFalse();
		assertThat(late.begin(entry("c", "s", "p"))).isInstanceOf(BeginResult.Started.class);
		assertThat(first.fence()).isNull();
	}

	@Test
	void storeThatNeverLostAnythingHasNoFence() {
		RedisIdempotencyStore replica = store(Limits.defaults(), this.clock, Duration.ofSeconds(30));
		replica.renewLeases();
		replica.begin(entry("k", "s", "p"));

		assertThat(replica.fence()).isNull();
		assertThat(replica.endFence()).isFalse();
	}

	/**
	 * ADR 0025: Redis evicted keys under a policy that can evict the store's: any entry
	 * may be gone. Under a {@code volatile-*} policy the store's keys (no TTL) are safe.
	 */
	@Test
	void keysEvictedUnderAPolicyThatCanEvictTheStoresStartTheFenceAndUnderAVolatileOneDoNot() {
		RedisIdempotencyStore replica = store(Limits.defaults(), this.clock, Duration.ofSeconds(30));
		replica.begin(entry("kept", "s", "p"));
		replica.complete(entry("kept", "s", "p"), reply("kept"));
		replica.renewLeases();
		try {
			evictSomeKeysWithATtl();
			replica.renewLeases();
			assertThat(replica.fence()).as("a volatile policy never evicts the store's keys").isNull();
			evictSomeKeysWithATtl();
			config("maxmemory-policy", "allkeys-lru");
			replica.renewLeases();
		}
		finally {
			config("maxmemory", "0");
			config("maxmemory-policy", "noeviction");
		}

		assertThat(replica.fence()).isNotNull().satisfies((fence) -> assertThat(fence.cause()).isEqualTo("evicted"));
		assertThat(replica.begin(entry("new", "s", "p"))).isEqualTo(BeginResult.Refused.fenced(FENCE));
		assertThat(replica.begin(entry("kept", "s", "p"))).isInstanceOf(BeginResult.Replay.class);
	}

	/** Makes Redis evict keys with a TTL (volatile-lru), which the store has none of. */
	private static void evictSomeKeysWithATtl() {
		long before = evictedKeys();
		config("maxmemory-policy", "volatile-lru");
		long used = Long.parseLong(info("memory").getProperty("used_memory"));
		config("maxmemory", Long.toString(used + 200_000));
		String value = "x".repeat(10_000);
		for (int i = 0; i < 500 && evictedKeys() == before; i++) {
			template.opsForValue().set("junk:" + i + ":" + before, value, Duration.ofMinutes(5));
		}
		config("maxmemory", "0");
		assertThat(evictedKeys()).as("Redis evicted keys").isGreaterThan(before);
	}

	private static long evictedKeys() {
		return Long.parseLong(info("stats").getProperty("evicted_keys"));
	}

	private static java.util.Properties info(String section) {
		return template.execute((org.springframework.data.redis.core.RedisCallback<java.util.Properties>) (
				connection) -> connection.serverCommands().info(section));
	}

	private static void config(String name, String value) {
		template.execute((org.springframework.data.redis.core.RedisCallback<Object>) (connection) -> {
			connection.serverCommands().setConfig(name, value);
			return null;
		});
	}

	/** ADR 0025: with wait-for-replicas, a key's begin is on a replica before it runs. */
	@Test
	void beginWithWaitForReplicasIsOnTheReplicaWhenTheCallMayRun() {
		try (RedisServer replica = RedisServer.replicaOf(server)) {
			RedisIdempotencyStore waiting = waiting(1, Duration.ofSeconds(5));

			BeginResult begun = waiting.begin(entry("k", "s", "p"));

			assertThat(begun).isInstanceOf(BeginResult.Started.class);
			assertThat(replica.template().opsForHash().get("{test}:idem:e:" + entry("k", "s", "p").entryKey(), "state"))
				.isEqualTo("f");
			assertThat(waiting.begin(entry("k", "s", "p"))).isEqualTo(new BeginResult.Refused(Refusal.IN_FLIGHT));
		}
	}

	@Test
	void beginTooFewReplicasAcknowledgeIsGivenBackAndRefused() {
		try (RedisServer replica = RedisServer.replicaOf(server)) {
			RedisIdempotencyStore waiting = waiting(2, Duration.ofMillis(200));

			BeginResult begun = waiting.begin(entry("k", "s", "p"));

			assertThat(begun).isEqualTo(new BeginResult.Refused(Refusal.UNREPLICATED));
			assertThat(((BeginResult.Refused) begun).error().code()).isEqualTo("idempotency_unavailable");
			assertThat(this.store.begin(entry("k", "s", "p"))).as("the key was given back")
				.isInstanceOf(BeginResult.Started.class);
		}
	}

	/**
	 * A store that waits for {@code replicas}; a generous {@code timeout} where the
	 * replica must answer (a loaded CI machine can take more than a few hundred ms).
	 */
	private RedisIdempotencyStore waiting(int replicas, Duration timeout) {
		return new RedisIdempotencyStore(
				template, new IdempotencyProperties.Redis("{test}:idem:", Duration.ofSeconds(30),
						Duration.ofSeconds(10), Limits.defaults(), replicas, timeout),
				FENCE, this.clock, new SimpleMeterRegistry());
	}

	@Test
	void unreachableRedisIsAStoreException() {
		LettuceConnectionFactory nowhere = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", 1));
		nowhere.afterPropertiesSet();
		nowhere.start();
		RedisIdempotencyStore unreachable = new RedisIdempotencyStore(
				new StringRedisTemplate(nowhere), new IdempotencyProperties.Redis("{test}:idem:",
						Duration.ofSeconds(30), Duration.ofSeconds(10), Limits.defaults()),
				FENCE, this.clock, new SimpleMeterRegistry());

		assertThatThrownBy(() -> unreachable.begin(entry("k", "s", "p"))).isInstanceOf(IdempotencyStoreException.class)
			.hasMessageNotContaining("k\"");
		assertThat(unreachable.ping()).isFalse();
		nowhere.destroy();
	}

	private static LettuceConnectionFactory connect() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", server.port()));
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}

}
