package io.github.mcpgateway.idempotency.redis;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import io.github.mcpgateway.support.GatewayReplica;
import io.github.mcpgateway.support.RedisServer;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestHttp;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestUpstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two gateway replicas (two application contexts on two ports) sharing one real
 * redis-server, in front of one upstream that counts executions. Runs with Spring Boot's
 * default Redis driver (Lettuce); {@link JedisReplicasIntegrationTest} runs the same
 * rules with the other supported driver.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisReplicasIntegrationTest {

	/**
	 * Persistent (append-only, fsync always), as production runs it: a restart here is an
	 * outage that loses nothing. A restart that loses the keys is
	 * {@link StoreLossReplicasIntegrationTest}'s subject (ADR 0025).
	 */
	private final RedisServer redis = RedisServer.startPersistent();

	private final TestUpstream upstream = TestUpstream.start();

	private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private ConfigurableApplicationContext replicaA;

	private ConfigurableApplicationContext replicaB;

	private final String token = TestJwts.jwt().human("alice-" + UUID.randomUUID()).sign();

	@BeforeAll
	void startReplicas() {
		Path policy = policy();
		this.replicaA = replica(policy);
		this.replicaB = replica(policy);
	}

	@AfterAll
	void stopReplicas() {
		this.replicaA.close();
		this.replicaB.close();
		this.redis.close();
	}

	/**
	 * Spring Boot's {@code spring.data.redis.client-type}, or {@code null} for its
	 * default.
	 */
	protected @Nullable String clientType() {
		return null;
	}

	@BeforeEach
	void reset() {
		this.upstream.reset();
	}

	@Test
	void replicasRunOnTheConfiguredDriver() {
		String expected = "jedis".equals(clientType()) ? "JedisConnectionFactory" : "LettuceConnectionFactory";
		assertThat(this.replicaA.getBean(RedisConnectionFactory.class).getClass().getSimpleName()).isEqualTo(expected);
	}

	@Test
	void sixtyFourConcurrentDuplicatesOverBothReplicasRunTheToolOnceAndTheOtherReplicaReplays() {
		this.upstream.reply(Replies.silentFor(300, Replies.jsonResult("{\"ran\":true}")));
		String key = UUID.randomUUID().toString();
		ExecutorService pool = Executors.newFixedThreadPool(64);
		try {
			List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
			for (int i = 0; i < 64; i++) {
				ConfigurableApplicationContext replica = (i % 2 == 0) ? this.replicaA : this.replicaB;
				calls.add(CompletableFuture.supplyAsync(() -> keyed(replica, key), pool));
			}
			List<HttpResponse<String>> responses = calls.stream().map(CompletableFuture::join).toList();

			assertThat(this.upstream.count()).isEqualTo(1);
			assertThat(responses).allSatisfy((response) -> assertThat(
					response.statusCode() == 200 || response.body().contains("\"code\":\"idempotency_in_flight\""))
				.as(response.body())
				.isTrue());
		}
		finally {
			pool.shutdownNow();
		}
		HttpResponse<String> fromA = keyed(this.replicaA, key);
		HttpResponse<String> fromB = keyed(this.replicaB, key);
		assertThat(fromA.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(fromB.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(fromB.body()).isEqualTo(fromA.body()).contains("\"ran\":true");
		assertThat(this.upstream.count()).isEqualTo(1);
	}

	@Test
	void replicaStoppedMidCallLeavesAnOutcomeUnknownOnceItsLeaseLapses() throws Exception {
		ConfigurableApplicationContext doomed = replica(policy());
		this.upstream.reply(Replies.silentFor(1500, Replies.jsonResult("{}")));
		String key = UUID.randomUUID().toString();
		CompletableFuture.runAsync(() -> keyed(doomed, key));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.upstream.count() == 1);

		// The replica dies: from Redis' point of view it stops talking (no completion, no
		// lease renewal), then the process goes away.
		((DisposableBean) doomed.getBean(RedisConnectionFactory.class)).destroy();
		doomed.close();

		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> keyed(this.replicaB, key).body().contains("\"code\":\"idempotency_outcome_unknown\""));
		assertThat(keyed(this.replicaA, key).body()).contains("\"code\":\"idempotency_outcome_unknown\"");
		assertThat(this.upstream.count()).isEqualTo(1);
	}

	@Test
	void redisDownFailsKeyedRequestsClosedWhileUnkeyedFlowAndRecoversWithoutRestart() {
		this.redis.stop();
		try {
			HttpResponse<String> keyed = keyed(this.replicaA, UUID.randomUUID().toString());
			assertThat(keyed.statusCode()).isEqualTo(503);
			assertThat(keyed.body()).contains("\"code\":\"idempotency_unavailable\"");
			assertThat(post(this.replicaA, null).statusCode()).isEqualTo(200);
			assertThat(this.upstream.count()).isEqualTo(1);
			assertThat(get(this.replicaA, "/actuator/health").body()).contains("\"idempotencyStore\":{\"details\"")
				.contains("\"reason\":\"unreachable\"");
			assertThat(get(this.replicaA, "/actuator/health/readiness").statusCode()).isEqualTo(200);
		}
		finally {
			this.redis.restart();
		}
		String key = UUID.randomUUID().toString();
		await().atMost(Duration.ofSeconds(15))
			.pollInterval(Duration.ofMillis(250))
			.until(() -> keyed(this.replicaB, key).statusCode() == 200);
		// Each replica's Redis client reconnects on its own schedule: A may still be out
		// of
		// reach (idempotency_unavailable) when B is back.
		HttpResponse<String> replayed = await().atMost(Duration.ofSeconds(15))
			.pollInterval(Duration.ofMillis(250))
			.until(() -> keyed(this.replicaA, key),
					(response) -> !response.body().contains("\"code\":\"idempotency_unavailable\""));
		assertThat(replayed.headers().firstValue("Idempotency-Replayed")).as(replayed.body()).hasValue("true");
	}

	@Test
	void scopeQuotaHoldsAcrossReplicas() {
		this.upstream.reply(Replies.silentFor(800, Replies.jsonResult("{}")));
		ExecutorService pool = Executors.newFixedThreadPool(10);
		try {
			List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
			for (int i = 0; i < 10; i++) {
				ConfigurableApplicationContext replica = (i % 2 == 0) ? this.replicaA : this.replicaB;
				String key = UUID.randomUUID().toString();
				calls.add(CompletableFuture.supplyAsync(() -> keyed(replica, key), pool));
			}
			List<HttpResponse<String>> responses = calls.stream().map(CompletableFuture::join).toList();

			assertThat(responses.stream().filter((r) -> r.statusCode() == 200)).hasSize(4);
			assertThat(responses.stream().filter((r) -> r.statusCode() == 429)).hasSize(6);
			assertThat(this.upstream.count()).isEqualTo(4);
		}
		finally {
			pool.shutdownNow();
		}
	}

	private HttpResponse<String> keyed(ConfigurableApplicationContext replica, String key) {
		return post(replica, key);
	}

	private HttpResponse<String> post(ConfigurableApplicationContext replica, String key) {
		return send(GatewayReplica.post(replica, this.token, null, key, "{\"jsonrpc\":\"2.0\",\"id\":1,"
				+ "\"method\":\"tools/call\",\"params\":{\"name\":\"notes_create\",\"arguments\":{\"text\":\"x\"}}}"));
	}

	private static HttpResponse<String> get(ConfigurableApplicationContext replica, String path) {
		return send(GatewayReplica.get(replica, path));
	}

	private static HttpResponse<String> send(HttpRequest request) {
		return TestHttp.send(http, request);
	}

	private ConfigurableApplicationContext replica(Path policy) {
		Map<String, String> properties = new java.util.HashMap<>(Map.of("gateway.idempotency.store", "redis",
				"gateway.idempotency.redis.lease", "2s", "gateway.idempotency.redis.lease-renew-interval", "500ms",
				"spring.data.redis.host", "127.0.0.1", "spring.data.redis.port", Integer.toString(this.redis.port())));
		if (clientType() != null) {
			properties.put("spring.data.redis.client-type", clientType());
		}
		return GatewayReplica.start(policy, properties);
	}

	private Path policy() {
		return GatewayReplica.policy(this.upstream);
	}

}
