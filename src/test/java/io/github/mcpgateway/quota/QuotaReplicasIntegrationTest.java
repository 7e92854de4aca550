package io.github.mcpgateway.quota;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import io.github.mcpgateway.support.GatewayReplica;
import io.github.mcpgateway.support.RedisServer;
import io.github.mcpgateway.support.TestHttp;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestUpstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two gateway replicas on one real redis-server ({@code gateway.quota.store: redis}) in
 * front of one upstream: a limit holds across them, concurrent calls through both get
 * exactly the bucket's tokens, and a Redis outage refuses limited calls (503
 * {@code quota_store_unavailable}, fail closed) until Redis is back, without a restart.
 */
class QuotaReplicasIntegrationTest {

	private static final RedisServer redis = RedisServer.start();

	private static final TestUpstream upstream = TestUpstream.start();

	private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private static ConfigurableApplicationContext replicaA;

	private static ConfigurableApplicationContext replicaB;

	@BeforeAll
	static void startReplicas() throws Exception {
		Path policy = GatewayReplica.policy(upstream, "\"*\"");
		Files.writeString(policy, Files.readString(policy) + """
				    limits:
				      - name: ten-a-minute
				        tools: ["limited_*"]
				        tokens: 10
				        period: 1m
				      - name: five-a-minute
				        tools: [alternating]
				        tokens: 5
				        period: 1m
				""");
		Map<String, String> properties = Map.of("gateway.quota.store", "redis", "spring.data.redis.port",
				Integer.toString(redis.port()));
		replicaA = GatewayReplica.start(policy, properties);
		replicaB = GatewayReplica.start(policy, properties);
	}

	@AfterAll
	static void stopReplicas() {
		replicaA.close();
		replicaB.close();
		redis.close();
	}

	@BeforeEach
	void reset() {
		upstream.reset();
	}

	@Test
	void aLimitHoldsAcrossReplicasCalledInTurn() {
		String token = TestJwts.jwt().human("alice-" + UUID.randomUUID()).sign();
		for (int i = 0; i < 5; i++) {
			assertThat(call((i % 2 == 0) ? replicaA : replicaB, token, "alternating").statusCode()).isEqualTo(200);
		}

		assertThat(QuotaRefusals.code(call(replicaB, token, "alternating"))).isEqualTo("rate_limited");
		assertThat(QuotaRefusals.code(call(replicaA, token, "alternating"))).isEqualTo("rate_limited");
		assertThat(upstream.count()).isEqualTo(5);
	}

	@Test
	void principalsWhoseHumanAndAgentJoinToTheSameTextHaveABucketEachInRedis() {
		String human = "dave-" + UUID.randomUUID();
		// Issue 36: both read "<human>/ci/deploy" once joined with a slash.
		String withCiDeploy = TestJwts.jwt().human(human).agent("ci/deploy").sign();
		String ciWithDeploy = TestJwts.jwt().human(human + "/ci").agent("deploy").sign();
		for (int i = 0; i < 5; i++) {
			assertThat(call(replicaA, withCiDeploy, "alternating").statusCode()).isEqualTo(200);
		}
		assertThat(QuotaRefusals.code(call(replicaB, withCiDeploy, "alternating"))).isEqualTo("rate_limited");

		assertThat(call(replicaB, ciWithDeploy, "alternating").statusCode())
			.as("the other principal's bucket is its own")
			.isEqualTo(200);
		assertThat(upstream.count()).isEqualTo(6);
	}

	@Test
	void sixtyFourConcurrentCallsThroughBothReplicasAgainstTenTokensLetExactlyTenThrough() throws Exception {
		String token = TestJwts.jwt().human("bob-" + UUID.randomUUID()).sign();
		ExecutorService pool = Executors.newFixedThreadPool(16);
		try {
			List<Callable<Integer>> calls = new ArrayList<>();
			for (int i = 0; i < 64; i++) {
				ConfigurableApplicationContext replica = (i % 2 == 0) ? replicaA : replicaB;
				String tool = "limited_" + (i % 3);
				calls.add(() -> call(replica, token, tool).statusCode());
			}
			List<Integer> statuses = new ArrayList<>();
			for (Future<Integer> status : pool.invokeAll(calls)) {
				statuses.add(status.get());
			}

			assertThat(statuses).filteredOn((status) -> status == 200).hasSize(10);
			assertThat(statuses).filteredOn((status) -> status == 429).hasSize(54);
			assertThat(upstream.count()).isEqualTo(10);
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void whileRedisIsDownLimitedCallsAreRefusedAndTheyRecoverWithoutARestart() {
		String token = TestJwts.jwt().human("carol-" + UUID.randomUUID()).sign();
		redis.stop();
		try {
			HttpResponse<String> refused = call(replicaA, token, "limited_a");
			assertThat(refused.statusCode()).isEqualTo(503);
			assertThat(refused.body()).contains("\"code\":\"quota_store_unavailable\"");
			assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
			assertThat(call(replicaB, token, "unlimited").statusCode()).as("a call no limit counts").isEqualTo(200);
			assertThat(upstream.received()).noneMatch((received) -> received.bodyText().contains("limited_a"));
		}
		finally {
			redis.restart();
		}

		await().atMost(Duration.ofSeconds(15))
			.pollInterval(Duration.ofMillis(250))
			.untilAsserted(() -> assertThat(call(replicaA, token, "limited_a").statusCode()).isEqualTo(200));
		assertThat(call(replicaB, token, "limited_b").statusCode()).isEqualTo(200);
	}

	private static HttpResponse<String> call(ConfigurableApplicationContext replica, String token, String tool) {
		return TestHttp.send(http,
				GatewayReplica.post(replica, token, null, null,
						"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
								+ "\",\"arguments\":{}}}"));
	}

}
