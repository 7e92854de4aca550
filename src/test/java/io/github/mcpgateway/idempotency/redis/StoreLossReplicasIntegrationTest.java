package io.github.mcpgateway.idempotency.redis;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.mcpgateway.support.GatewayReplica;
import io.github.mcpgateway.support.RedisServer;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestHttp;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestUpstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * ADR 0025, issue 44: two gateway replicas on one real redis-server without persistence,
 * which forgets every key when it restarts (or is flushed). A keyed call in flight at the
 * loss is never executed again; keys the store no longer holds are refused with
 * {@code 503 idempotency_store_recovering} and a {@code Retry-After} until the fence
 * ends, unkeyed calls are unaffected, and an operator can end the fence (audited). The
 * fence is short here: an entry lives 2 s ({@code ttl}, tasks 1 s), the lease is 1 s and
 * is renewed every 400 ms, so a forgotten key can come back for 3.4 s.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StoreLossReplicasIntegrationTest {

	private static final Duration FENCE = Duration.ofMillis(3400);

	private final RedisServer redis = RedisServer.start();

	private final TestUpstream upstream = TestUpstream.start();

	private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private ConfigurableApplicationContext replicaA;

	private ConfigurableApplicationContext replicaB;

	private final String token = TestJwts.jwt().human("alice-" + UUID.randomUUID()).sign();

	private final String operator = TestJwts.jwt().human("ops").sign();

	@BeforeAll
	void startReplicas() {
		Path policy = GatewayReplica.policy(this.upstream);
		Map<String, String> properties = Map.of("gateway.idempotency.store", "redis", "gateway.idempotency.redis.lease",
				"1s", "gateway.idempotency.redis.lease-renew-interval", "400ms", "gateway.idempotency.redis.limits.ttl",
				"2s", "gateway.task.max-ttl", "1s", "spring.data.redis.host", "127.0.0.1", "spring.data.redis.port",
				Integer.toString(this.redis.port()), "gateway.identity.operators[0].human", "ops");
		this.replicaA = GatewayReplica.start(policy, properties);
		this.replicaB = GatewayReplica.start(policy, properties);
	}

	@AfterAll
	void stopReplicas() {
		this.replicaA.close();
		this.replicaB.close();
		this.redis.close();
	}

	@BeforeEach
	void reset() {
		this.upstream.reset();
	}

	@AfterEach
	void waitForTheFenceToEnd() {
		await().atMost(FENCE.plusSeconds(5))
			.pollInterval(Duration.ofMillis(250))
			.until(() -> keyed(this.replicaA, UUID.randomUUID().toString()).statusCode() == 200);
	}

	@ParameterizedTest(name = "Redis {0}")
	@ValueSource(strings = { "restarted empty", "flushed" })
	void keyedCallInFlightWhenRedisForgotItIsNeverRunAgainAndUnknownKeysWaitForTheFence(String loss) {
		this.upstream.reply(Replies.silentFor(1500, Replies.jsonResult("{\"ran\":true}")));
		String key = UUID.randomUUID().toString();
		double lossesBefore = losses(this.replicaA) + losses(this.replicaB);
		CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> keyed(this.replicaA, key));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.upstream.count() == 1);

		forget(loss);
		Instant lost = Instant.now();
		HttpResponse<String> retry = keyed(this.replicaB, key);
		HttpResponse<String> fresh = keyed(this.replicaB, UUID.randomUUID().toString());
		HttpResponse<String> unkeyed = send(GatewayReplica.post(this.replicaB, this.token, null, null, CALL));

		assertThat(code(retry)).as("in flight: adopted again by its replica, or not yet")
			.isIn("idempotency_in_flight", "idempotency_store_recovering");
		assertThat(fresh.statusCode()).isEqualTo(503);
		assertThat(code(fresh)).isEqualTo("idempotency_store_recovering");
		assertThat(Long.parseLong(fresh.headers().firstValue("Retry-After").orElseThrow())).isBetween(1L, 4L);
		assertThat(unkeyed.statusCode()).as("unkeyed traffic is unaffected").isEqualTo(200);
		assertThat(first.join().statusCode()).isEqualTo(200);
		HttpResponse<String> replayed = keyed(this.replicaB, key);
		assertThat(replayed.headers().firstValue("Idempotency-Replayed")).as(replayed.body()).hasValue("true");
		assertThat(this.upstream.received().stream().filter((r) -> r.bodyText().contains("notes_create")))
			.as("the call ran once; the unkeyed call once more")
			.hasSize(2);
		assertThat(losses(this.replicaA) + losses(this.replicaB) - lossesBefore).as("one replica detected the loss")
			.isEqualTo(1);
		assertThat(Duration.between(lost, Instant.now())).as("all of this within the fence").isLessThan(FENCE);
	}

	@ParameterizedTest(name = "Redis {0}")
	@ValueSource(strings = { "restarted empty", "flushed" })
	void newKeyIsRefusedDuringTheFenceAndAdmittedAfterIt(String loss) {
		keyed(this.replicaA, UUID.randomUUID().toString());
		keyed(this.replicaB, UUID.randomUUID().toString());
		forget(loss);
		String key = UUID.randomUUID().toString();

		HttpResponse<String> during = keyed(this.replicaA, key);
		HttpResponse<String> health = send(GatewayReplica.get(this.replicaB, "/actuator/health"));

		assertThat(code(during)).isEqualTo("idempotency_store_recovering");
		assertThat(health.body()).contains("\"fence\":{").contains("\"warnings\":[\"appendonly is off");
		await().atMost(FENCE.plusSeconds(3))
			.pollInterval(Duration.ofMillis(250))
			.until(() -> keyed(this.replicaB, key).statusCode() == 200);
		assertThat(keyed(this.replicaA, key).headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(this.upstream.received()).hasSize(3);
	}

	@ParameterizedTest(name = "Redis {0}")
	@ValueSource(strings = { "flushed" })
	@ExtendWith(OutputCaptureExtension.class)
	void operatorEndsTheFenceThroughTheOperatorEndpoint(String loss, CapturedOutput output) {
		keyed(this.replicaA, UUID.randomUUID().toString());
		forget(loss);
		assertThat(code(keyed(this.replicaA, UUID.randomUUID().toString()))).isEqualTo("idempotency_store_recovering");
		HttpRequest.Builder delete = HttpRequest.newBuilder(operatorUri(this.replicaB)).DELETE();

		HttpResponse<String> anonymous = send(delete.build());
		HttpResponse<String> ended = send(delete.header("Authorization", "Bearer " + this.operator).build());
		HttpResponse<String> again = send(delete.build());

		assertThat(anonymous.statusCode()).isEqualTo(401);
		assertThat(ended.statusCode()).as(ended.body()).isEqualTo(200);
		assertThat(again.statusCode()).isEqualTo(404);
		assertThat(output.getOut()).contains("\"operator_action\":\"idempotency_fence_ended\"")
			.contains("\"operator\":\"ops\"")
			.contains("\"idempotency\":\"fenced\"");
		assertThat(keyed(this.replicaA, UUID.randomUUID().toString()).statusCode()).isEqualTo(200);
	}

	private static final String CALL = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
			+ "{\"name\":\"notes_create\",\"arguments\":{\"text\":\"x\"}}}";

	/**
	 * Makes Redis forget every key, then waits until both replicas reach it again (a
	 * replica refuses keyed calls with {@code idempotency_unavailable} while it cannot).
	 */
	private void forget(String loss) {
		if (loss.equals("flushed")) {
			this.redis.flushAll();
		}
		else {
			this.redis.restart();
		}
		for (ConfigurableApplicationContext replica : new ConfigurableApplicationContext[] { this.replicaA,
				this.replicaB }) {
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> !code(keyed(replica, UUID.randomUUID().toString())).equals("idempotency_unavailable"));
		}
	}

	private HttpResponse<String> keyed(ConfigurableApplicationContext replica, String key) {
		return send(GatewayReplica.post(replica, this.token, null, key, CALL));
	}

	private static URI operatorUri(ConfigurableApplicationContext replica) {
		return GatewayReplica.uri(replica, "/actuator/idempotency/fence");
	}

	private static String code(HttpResponse<String> response) {
		int at = response.body().indexOf("\"code\":\"");
		return (at < 0) ? "" : response.body().substring(at + 8, response.body().indexOf('"', at + 8));
	}

	private static double losses(ConfigurableApplicationContext replica) {
		return replica.getBean(MeterRegistry.class)
			.find(RedisStoreMeters.LOSSES)
			.counters()
			.stream()
			.mapToDouble((counter) -> counter.count())
			.sum();
	}

	private static HttpResponse<String> send(HttpRequest request) {
		return TestHttp.send(http, request);
	}

}
