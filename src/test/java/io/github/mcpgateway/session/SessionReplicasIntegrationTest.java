package io.github.mcpgateway.session;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.mcpgateway.support.GatewayReplica;
import io.github.mcpgateway.support.RedisServer;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestHttp;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestRevocations;
import io.github.mcpgateway.support.TestUpstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two gateway replicas (two application contexts on two ports) with
 * {@code gateway.session.store: redis} sharing one real redis-server and one revocation
 * file, in front of one upstream that counts what reaches it.
 */
class SessionReplicasIntegrationTest {

	/**
	 * With an append-only file: a restart keeps the bindings, as a production Redis
	 * should.
	 */
	private static final RedisServer redis = RedisServer.startPersistent();

	private static final TestUpstream upstream = TestUpstream.start();

	private static final TestRevocations revocations = new TestRevocations();

	private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private static Path policy;

	private static ConfigurableApplicationContext replicaA;

	private static ConfigurableApplicationContext replicaB;

	private final String alice = TestJwts.jwt().human("alice-" + UUID.randomUUID()).sign();

	private final String bob = TestJwts.jwt().human("bob-" + UUID.randomUUID()).sign();

	@BeforeAll
	static void startReplicas() {
		policy = GatewayReplica.policy(upstream);
		replicaA = replica();
		replicaB = replica();
	}

	@AfterAll
	static void stopReplicas() {
		replicaA.close();
		replicaB.close();
		redis.close();
	}

	@BeforeEach
	void reset() {
		revocations.clear();
		upstream.reset();
		upstream.reply(Replies.sessions("s-" + UUID.randomUUID()));
	}

	@Test
	void sessionCreatedOnOneReplicaWorksOnTheOtherAndOnTheFirstAfterItRestarts() {
		String session = initialize(replicaA, this.alice);

		assertThat(call(replicaB, this.alice, session, null).statusCode()).isEqualTo(200);

		replicaA.close();
		replicaA = replica();
		assertThat(call(replicaA, this.alice, session, null).statusCode()).isEqualTo(200);
		assertThat(upstream.count()).isEqualTo(3);
	}

	@Test
	void sessionPresentedByAnotherPrincipalOnTheOtherReplicaIsUnknownAndNothingGoesUpstream() {
		String session = initialize(replicaA, this.alice);
		int sent = upstream.count();

		HttpResponse<String> stolen = call(replicaB, this.bob, session, null);

		assertThat(stolen.statusCode()).isEqualTo(404);
		assertThat(stolen.body()).contains("\"code\":\"session_not_found\"");
		assertThat(upstream.count()).isEqualTo(sent);
		assertThat(call(replicaA, this.alice, session, null).statusCode()).isEqualTo(200);
	}

	@Test
	void deleteOnOneReplicaEndsTheSessionOnTheOther() {
		String session = initialize(replicaA, this.alice);

		HttpResponse<String> deleted = send(HttpRequest.newBuilder(GatewayReplica.uri(replicaB, GatewayReplica.PATH))
			.header("Authorization", "Bearer " + this.alice)
			.header("Mcp-Session-Id", session)
			.DELETE()
			.build());
		assertThat(deleted.statusCode()).isEqualTo(200);
		int sent = upstream.count();

		HttpResponse<String> afterwards = call(replicaA, this.alice, session, null);
		assertThat(afterwards.statusCode()).isEqualTo(404);
		assertThat(afterwards.body()).contains("\"code\":\"session_not_found\"");
		assertThat(upstream.count()).isEqualTo(sent);
	}

	@Test
	void revokedSessionIsRefusedOnBothReplicasWithinTheSyncInterval() {
		String session = initialize(replicaA, this.alice);
		assertThat(call(replicaB, this.alice, session, null).statusCode()).isEqualTo(200);

		revocations.write("{\"sessions\":[\"" + session + "\"],\"principals\":[]}");

		await().atMost(Duration.ofMillis(1500))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> call(replicaA, this.alice, session, null).statusCode() == 404
					&& call(replicaB, this.alice, session, null).statusCode() == 404);
		revocations.clear();
		// Revocation removed the binding itself: lifting the revocation does not revive
		// it.
		await().pollDelay(Duration.ofSeconds(1)).until(() -> true);
		assertThat(call(replicaB, this.alice, session, null).statusCode()).isEqualTo(404);
	}

	@Test
	void keyedRetryCarryingTheSessionOnTheOtherReplicaIsReplayed() {
		String session = initialize(replicaA, this.alice);
		String key = UUID.randomUUID().toString();
		HttpResponse<String> first = call(replicaA, this.alice, session, key);
		int sent = upstream.count();

		HttpResponse<String> retry = call(replicaB, this.alice, session, key);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(upstream.count()).isEqualTo(sent);
	}

	@Test
	void redisDownFailsSessionRequestsClosedWhileInitializeWorksAndItsSessionIsSharedOnceRedisIsBack() {
		String before = initialize(replicaA, this.alice);
		redis.stop();
		String during;
		try {
			int sent = upstream.count();
			HttpResponse<String> refused = call(replicaB, this.alice, before, null);
			assertThat(refused.statusCode()).isEqualTo(503);
			assertThat(refused.body()).contains("\"code\":\"session_store_unavailable\"");
			assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
			assertThat(upstream.count()).isEqualTo(sent);

			during = initialize(replicaA, this.alice);
			assertThat(call(replicaA, this.alice, during, null).statusCode()).isEqualTo(503);
			assertThat(get(replicaA, "/actuator/health").body()).contains("\"sessionStore\":{\"details\"")
				.contains("\"pendingBindings\":1");
			assertThat(get(replicaA, "/actuator/health/readiness").statusCode()).isEqualTo(200);
		}
		finally {
			redis.restart();
		}
		await().atMost(Duration.ofSeconds(15))
			.pollInterval(Duration.ofMillis(250))
			.until(() -> call(replicaB, this.alice, during, null).statusCode() == 200);
		assertThat(call(replicaB, this.alice, before, null).statusCode()).isEqualTo(200);
		// Within 5 s of the outage an unknown session is "unavailable" (it may be pending
		// on
		// another replica), then "not found" again.
		assertThat(call(replicaA, this.alice, "never-bound", null).statusCode()).isEqualTo(503);
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(250))
			.until(() -> call(replicaA, this.alice, "never-bound", null).statusCode() == 404
					&& call(replicaB, this.alice, "never-bound", null).statusCode() == 404);
	}

	@Test
	void sessionCreatedWhileRedisIsDownIsNeverNotFoundOnAnotherReplicaOnceRedisIsBack() {
		redis.stop();
		String during;
		try {
			during = initialize(replicaA, this.alice);
			assertThat(call(replicaB, this.alice, during, null).statusCode()).isEqualTo(503);
		}
		finally {
			redis.restart();
		}
		// Asked on the other replica as soon as it can reach Redis again, before the
		// replica
		// that holds the binding may have written it: never a 404.
		await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20)).until(() -> {
			int status = call(replicaB, this.alice, during, null).statusCode();
			assertThat(status).isIn(200, 503);
			return status == 200;
		});
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(250))
			.until(() -> call(replicaA, this.alice, "never-bound", null).statusCode() == 404
					&& call(replicaB, this.alice, "never-bound", null).statusCode() == 404);
	}

	@Test
	void redisHoldsHashesOfSessionIdsNeverTheIdsThemselves() {
		String session = initialize(replicaA, this.alice);

		StringRedisTemplate template = replicaA.getBean(StringRedisTemplate.class);
		Set<String> all = template.keys("{mcp-gateway}:session:*");
		assertThat(all).isNotEmpty().noneMatch((key) -> key.contains(session));
		Set<String> humans = template.keys("{mcp-gateway}:session:human:*");
		assertThat(humans).as("each human's set of bindings").isNotEmpty();
		assertThat(humans).allSatisfy((key) -> assertThat(template.opsForZSet().range(key, 0, -1)).isNotEmpty()
			.allSatisfy((member) -> assertThat(member).startsWith("{mcp-gateway}:session:").doesNotContain(session)));
		Set<String> keys = new java.util.HashSet<>(all);
		keys.removeAll(humans);
		assertThat(keys).allSatisfy((key) -> assertThat(template.opsForValue().get(key)).doesNotContain(session));
		assertThat(keys).allSatisfy((key) -> assertThat(template.getExpire(key)).isBetween(1L, 3600L));
	}

	private String initialize(ConfigurableApplicationContext replica, String token) {
		HttpResponse<String> response = post(replica, token, null, null, """
				{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",\
				"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}""");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
	}

	private HttpResponse<String> call(ConfigurableApplicationContext replica, String token, String session,
			String key) {
		return post(replica, token, session, key, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
				+ "\"params\":{\"name\":\"notes_create\",\"arguments\":{\"text\":\"x\"}}}");
	}

	private HttpResponse<String> post(ConfigurableApplicationContext replica, String token, String session, String key,
			String body) {
		return send(GatewayReplica.post(replica, token, session, key, body));
	}

	private static HttpResponse<String> get(ConfigurableApplicationContext replica, String path) {
		return send(GatewayReplica.get(replica, path));
	}

	private static HttpResponse<String> send(HttpRequest request) {
		return TestHttp.send(http, request);
	}

	private static ConfigurableApplicationContext replica() {
		return GatewayReplica.start(policy,
				Map.of("gateway.revocation.source", revocations.file().toString(), "gateway.session.store", "redis",
						"gateway.session.idle-timeout", "1h", "gateway.idempotency.store", "redis",
						"spring.data.redis.host", "127.0.0.1", "spring.data.redis.port",
						Integer.toString(redis.port())));
	}

}
