package io.github.mcpgateway.task;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ConfigurableApplicationContext;

import io.github.mcpgateway.support.GatewayReplica;
import io.github.mcpgateway.support.RedisServer;
import io.github.mcpgateway.support.TestHttp;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestTaskUpstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two gateway replicas on one real redis-server ({@code gateway.session.store: redis},
 * where task bindings live too) in front of one upstream whose task store every caller
 * shares: every replica serves every task to its owner only, the caps hold across
 * replicas, and a Redis outage fails task requests closed.
 */
class TaskReplicasIntegrationTest {

	private static final RedisServer redis = RedisServer.start();

	private static final TestTaskUpstream upstream = TestTaskUpstream.start();

	private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private static final JsonMapper json = JsonMapper.builder().build();

	private static ConfigurableApplicationContext replicaA;

	private static ConfigurableApplicationContext replicaB;

	private final String alice = TestJwts.jwt().human("alice-" + UUID.randomUUID()).sign();

	private final String bob = TestJwts.jwt().human("bob-" + UUID.randomUUID()).sign();

	@BeforeAll
	static void startReplicas() {
		Path policy = GatewayReplica.policy(upstream.url(), "\"*\"");
		Map<String, String> properties = Map.of("gateway.session.store", "redis", "gateway.idempotency.store", "redis",
				"spring.data.redis.port", Integer.toString(redis.port()), "gateway.task.max-bindings-per-principal",
				"10");
		replicaA = GatewayReplica.start(policy, properties);
		replicaB = GatewayReplica.start(policy, properties);
	}

	@AfterAll
	static void stopReplicas() {
		replicaA.close();
		replicaB.close();
		redis.close();
		upstream.stop();
	}

	@BeforeEach
	void reset() {
		upstream.reset();
	}

	@Test
	void taskCreatedOnOneReplicaIsServedToItsOwnerOnTheOtherAndRefusedToAnyoneElse() {
		String taskId = taskIdOf(create(replicaA, this.alice, 600_000, null));

		HttpResponse<String> polled = post(replicaB, this.alice, taskRequest("tasks/get", taskId), null);
		HttpResponse<String> stolen = post(replicaB, this.bob, taskRequest("tasks/result", taskId), null);

		assertThat(polled.statusCode()).isEqualTo(200);
		assertThat(body(polled).at("/result/taskId").asString()).isEqualTo(taskId);
		assertThat(stolen.statusCode()).isEqualTo(200);
		assertThat(body(stolen).at("/error/data/code").asString()).isEqualTo("task_not_found");
		assertThat(upstream.received("tasks/get")).hasSize(1);
		assertThat(upstream.received("tasks/result")).isEmpty();
	}

	@Test
	void taskListCursorSealedOnOneReplicaOpensOnTheOtherForItsCallerOnly() {
		List<String> alices = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			alices.add(taskIdOf(create(replicaA, this.alice, 600_000, null)));
		}
		HttpResponse<String> first = post(replicaA, this.alice, LIST_FIRST, null);
		String cursor = body(first).at("/result/nextCursor").asString();
		assertThat(cursor).startsWith("c1.");
		for (String taskId : alices) {
			assertThat(cursor).doesNotContain(taskId);
		}
		String next = "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tasks/list\",\"params\":{\"cursor\":\"" + cursor
				+ "\"}}";

		HttpResponse<String> second = post(replicaB, this.alice, next, null);
		HttpResponse<String> stolen = post(replicaB, this.bob, next, null);

		assertThat(body(second).at("/result/tasks").values()).hasSize(1);
		assertThat(body(stolen).at("/error/data/code").asString()).isEqualTo("task_cursor_invalid");
		assertThat(upstream.received("tasks/list")).hasSize(2);
	}

	@Test
	void perPrincipalCapHoldsAcrossReplicasUnderConcurrentCalls() throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(16);
		List<Future<HttpResponse<String>>> calls = new ArrayList<>();
		try {
			for (int i = 0; i < 64; i++) {
				ConfigurableApplicationContext replica = (i % 2 == 0) ? replicaA : replicaB;
				calls.add(pool.submit(() -> create(replica, this.alice, 600_000, null)));
			}
			int created = 0;
			int refused = 0;
			for (Future<HttpResponse<String>> call : calls) {
				HttpResponse<String> response = call.get();
				if (response.statusCode() == 200) {
					created++;
				}
				else {
					assertThat(response.statusCode()).isEqualTo(429);
					assertThat(body(response).at("/error/data/code").asString()).isEqualTo("task_capacity");
					refused++;
				}
			}
			assertThat(created).isEqualTo(10);
			assertThat(refused).isEqualTo(54);
			assertThat(upstream.received("tools/call")).hasSize(10);
			assertThat(create(replicaB, this.bob, 600_000, null).statusCode()).as("another principal").isEqualTo(200);
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void keyedCallRefusedAtTheCapStoresNothingAndItsRetryRunsOnceThereIsRoom() {
		for (int i = 0; i < 10; i++) {
			assertThat(create(replicaA, this.alice, 1_500, null).statusCode()).isEqualTo(200);
		}
		String key = UUID.randomUUID().toString();

		HttpResponse<String> refused = create(replicaB, this.alice, 600_000, key);
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(upstream.received("tools/call")).hasSize(10);

		// The ten tasks' bindings expire with their ttl; the key was never stored.
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
			HttpResponse<String> retry = create(replicaA, this.alice, 600_000, key);
			assertThat(retry.statusCode()).isEqualTo(200);
			assertThat(retry.headers().firstValue("Idempotency-Replayed")).isEmpty();
		});
		HttpResponse<String> again = create(replicaB, this.alice, 600_000, key);
		assertThat(again.headers().firstValue("Idempotency-Replayed")).as(again.headers().map() + again.body())
			.hasValue("true");
		assertThat(upstream.received("tools/call")).hasSize(11);
	}

	@Test
	void redisDownFailsTaskRequestsAndCreationsClosedWithNothingUpstreamThenRecovers() {
		String taskId = taskIdOf(create(replicaA, this.alice, 600_000, null));
		taskIdOf(create(replicaA, this.alice, 600_000, null));
		taskIdOf(create(replicaA, this.alice, 600_000, null));
		String cursor = body(post(replicaA, this.alice, LIST_FIRST, null)).at("/result/nextCursor").asString();
		String next = "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tasks/list\",\"params\":{\"cursor\":\"" + cursor
				+ "\"}}";
		int sent = upstream.received().size();
		redis.stop();
		try {
			HttpResponse<String> get = post(replicaB, this.alice, taskRequest("tasks/get", taskId), null);
			assertThat(get.statusCode()).isEqualTo(503);
			assertThat(body(get).at("/error/data/code").asString()).isEqualTo("task_store_unavailable");
			assertThat(get.headers().firstValue("Retry-After")).hasValue("1");
			HttpResponse<String> creation = create(replicaA, this.alice, 600_000, null);
			assertThat(creation.statusCode()).isEqualTo(503);
			assertThat(body(creation).at("/error/data/code").asString()).isEqualTo("task_store_unavailable");
			HttpResponse<String> listed = post(replicaB, this.alice, next, null);
			assertThat(listed.statusCode()).isEqualTo(503);
			assertThat(body(listed).at("/error/data/code").asString()).isEqualTo("task_store_unavailable");
			assertThat(upstream.received()).hasSize(sent);
		}
		finally {
			redis.restart();
		}
		// An empty Redis came back: the binding is gone, so the task is unknown (never
		// anyone else's); new tasks bind again.
		await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
			HttpResponse<String> created = create(replicaB, this.alice, 600_000, null);
			assertThat(created.statusCode()).isEqualTo(200);
			String fresh = taskIdOf(created);
			assertThat(post(replicaA, this.alice, taskRequest("tasks/get", fresh), null).statusCode()).isEqualTo(200);
		});
		// Its cursor secret is gone with it: an earlier cursor no longer opens.
		assertThat(body(post(replicaB, this.alice, next, null)).at("/error/data/code").asString())
			.isEqualTo("task_cursor_invalid");
	}

	private HttpResponse<String> create(ConfigurableApplicationContext replica, String token, long ttl, String key) {
		return post(replica, token, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
				+ "{\"name\":\"research\",\"arguments\":{\"ms\":200},\"task\":{\"ttl\":" + ttl + "}}}", key);
	}

	private static String taskIdOf(HttpResponse<String> created) {
		assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
		return body(created).at("/result/task/taskId").asString();
	}

	private static final String LIST_FIRST = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tasks/list\"}";

	private static String taskRequest(String method, String taskId) {
		return "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"" + method + "\",\"params\":{\"taskId\":\"" + taskId
				+ "\"}}";
	}

	private static HttpResponse<String> post(ConfigurableApplicationContext replica, String token, String body,
			String key) {
		return TestHttp.send(http, GatewayReplica.post(replica, token, null, key, body));
	}

	private static JsonNode body(HttpResponse<String> response) {
		return json.readTree(response.body());
	}

}
