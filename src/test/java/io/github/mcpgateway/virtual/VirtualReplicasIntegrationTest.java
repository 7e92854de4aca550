package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.mcpgateway.demo.DemoMcpServer;
import io.github.mcpgateway.support.GatewayReplica;
import io.github.mcpgateway.support.RedisServer;
import io.github.mcpgateway.support.TestHttp;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two gateway replicas with {@code gateway.session.store: redis} on one real
 * redis-server, serving one virtual server over two Java SDK servers (one with sessions
 * and event streams, one stateless with JSON replies): a virtual session opened on one
 * replica is served by the other.
 */
class VirtualReplicasIntegrationTest {

	private static final String PATH = "/mcp/test/workspace";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final RedisServer redis = RedisServer.start();

	private static final DemoMcpServer streamMember = DemoMcpServer.start(0, DemoMcpServer.Mode.STREAMABLE);

	private static final DemoMcpServer jsonMember = DemoMcpServer.start(0, DemoMcpServer.Mode.STATELESS);

	private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private static ConfigurableApplicationContext replicaA;

	private static ConfigurableApplicationContext replicaB;

	private final String alice = TestJwts.jwt().human("alice-" + UUID.randomUUID()).sign();

	@BeforeAll
	static void startReplicas() {
		Path policy = policy();
		replicaA = replica(policy);
		replicaB = replica(policy);
	}

	@AfterAll
	static void stopReplicas() {
		replicaA.close();
		replicaB.close();
		streamMember.close();
		jsonMember.close();
		redis.close();
	}

	@Test
	void aVirtualSessionOpenedOnOneReplicaListsAndCallsEachMemberOnTheOther() {
		String session = initialize(replicaA, this.alice);

		HttpResponse<String> list = post(replicaB, this.alice, session, jsonRpc(2, "tools/list", "{}"));
		HttpResponse<String> stream = post(replicaB, this.alice, session, call(3, "stream_echo", "hello stream"));
		HttpResponse<String> json = post(replicaB, this.alice, session, call(4, "json_echo", "hello json"));

		assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
		assertThat(names(list)).containsExactly("stream_echo", "stream_notes_create", "stream_notes_list", "json_echo",
				"json_notes_create", "json_notes_list");
		assertThat(stream.statusCode()).as(stream.body()).isEqualTo(200);
		assertThat(stream.body()).contains("\"id\":3").contains("hello stream");
		assertThat(stream.headers().firstValue("Content-Type")).as("the member with event streams answered")
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
		assertThat(json.statusCode()).as(json.body()).isEqualTo(200);
		assertThat(json.body()).contains("\"id\":4").contains("hello json");
		assertThat(json.headers().firstValue("Content-Type")).as("the stateless member answered")
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/json"));
	}

	@Test
	void aVirtualSessionIsItsCallersOnlyOnEveryReplica() {
		String session = initialize(replicaA, this.alice);
		String mallory = TestJwts.jwt().human("mallory-" + UUID.randomUUID()).sign();

		HttpResponse<String> stolen = post(replicaB, mallory, session, jsonRpc(5, "tools/list", "{}"));

		assertThat(stolen.statusCode()).isEqualTo(404);
		assertThat(stolen.body()).contains("\"code\":\"session_not_found\"");
		assertThat(post(replicaB, this.alice, session, jsonRpc(6, "tools/list", "{}")).statusCode()).isEqualTo(200);
	}

	@Test
	void deleteOnOneReplicaEndsTheVirtualSessionOnTheOther() {
		String session = initialize(replicaA, this.alice);

		HttpResponse<String> deleted = TestHttp.send(http,
				HttpRequest.newBuilder(GatewayReplica.uri(replicaB, PATH))
					.header("Authorization", "Bearer " + this.alice)
					.header("Mcp-Session-Id", session)
					.DELETE()
					.build());
		HttpResponse<String> afterwards = post(replicaA, this.alice, session, call(7, "json_echo", "x"));

		assertThat(deleted.statusCode()).isEqualTo(204);
		assertThat(afterwards.statusCode()).isEqualTo(404);
		assertThat(afterwards.body()).contains("\"code\":\"session_not_found\"");
	}

	@Test
	void redisHoldsAHashOfTheVirtualSessionIdNeverTheIdItself() {
		String session = initialize(replicaA, this.alice);

		StringRedisTemplate template = replicaA.getBean(StringRedisTemplate.class);
		Set<String> keys = template.keys("{mcp-gateway}:session:virtual:*");
		assertThat(keys).isNotEmpty().noneMatch((key) -> key.contains(session));
		assertThat(keys).allSatisfy((key) -> assertThat(template.opsForValue().get(key)).doesNotContain(session));
		assertThat(keys).allSatisfy((key) -> assertThat(template.getExpire(key)).isBetween(1L, 3600L));
	}

	@Test
	void redisDownIsTheSessionStoresRefusalThroughTheVirtualServerNotAnError() {
		String session = initialize(replicaA, this.alice);
		redis.stop();
		try {
			HttpResponse<String> refused = post(replicaB, this.alice, session, call(8, "json_echo", "x"));

			assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
			assertThat(refused.body()).contains("\"code\":\"session_store_unavailable\"");
			assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
		}
		finally {
			redis.restart();
		}
		// Without persistence the restarted Redis lost the session: once the recovery
		// window has passed it is unknown, and a new one works on both replicas.
		await().atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(250))
			.until(() -> post(replicaB, this.alice, session, call(9, "json_echo", "x")).statusCode() == 404);
		String again = initialize(replicaA, this.alice);
		assertThat(post(replicaB, this.alice, again, call(10, "json_echo", "back")).body()).contains("back");
	}

	private String initialize(ConfigurableApplicationContext replica, String token) {
		HttpResponse<String> response = post(replica, token, null, jsonRpc(1, "initialize",
				"{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}"));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
		assertThat(post(replica, token, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
			.statusCode()).isEqualTo(202);
		return session;
	}

	private static HttpResponse<String> post(ConfigurableApplicationContext replica, String token, String session,
			String body) {
		return TestHttp.send(http,
				GatewayReplica.post(GatewayReplica.uri(replica, PATH), token, session, null, body).build());
	}

	private static String jsonRpc(int id, String method, String params) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}";
	}

	private static String call(int id, String tool, String text) {
		return jsonRpc(id, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":{\"text\":\"" + text + "\"}}");
	}

	private static List<String> names(HttpResponse<String> response) {
		List<String> names = new ArrayList<>();
		for (JsonNode tool : JSON.readTree(response.body()).path("result").path("tools")) {
			names.add(tool.path("name").asString());
		}
		return names;
	}

	private static Path policy() {
		try {
			Path policy = Files.createTempFile("policy", ".yaml");
			Files.writeString(policy, """
					servers:
					  - namespace: test
					    name: sdk-stream
					    uid: uid-sdk-stream
					    upstream: %s
					    path: /mcp/test/sdk-stream
					    grants:
					      - tools: [echo, "notes_*"]
					  - namespace: test
					    name: sdk-json
					    uid: uid-sdk-json
					    upstream: %s
					    path: /mcp/test/sdk-json
					    grants:
					      - tools: [echo, "notes_*"]
					virtual-servers:
					  - namespace: test
					    name: workspace
					    uid: uid-workspace
					    path: %s
					    members:
					      - server: test/sdk-stream
					        prefix: stream
					      - server: test/sdk-json
					        prefix: json
					""".formatted(streamMember.url(), jsonMember.url(), PATH));
			return policy;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static ConfigurableApplicationContext replica(Path policy) {
		return GatewayReplica.start(policy, Map.of("gateway.session.store", "redis", "gateway.session.idle-timeout",
				"1h", "spring.data.redis.host", "127.0.0.1", "spring.data.redis.port", Integer.toString(redis.port())));
	}

}
