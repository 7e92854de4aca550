package io.github.mcpgateway.e2e;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged jar, started as the README's first command starts it (demo profile),
 * driven over HTTP as a newcomer's curl would. Catches what tests on the test classpath
 * cannot: a dependency missing from the jar, a profile that does not start.
 */
class PackagedJarDemoIT {

	private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private static Process gateway;

	private static int port;

	private static Path log;

	@BeforeAll
	static void startTheJar() throws Exception {
		port = freePort();
		int streamable = freePort();
		int json = freePort();
		Path policy = Files.createTempFile("demo-policy", ".yaml");
		Files.writeString(policy,
				new String(PackagedJarDemoIT.class.getResourceAsStream("/demo/policy.yaml").readAllBytes())
					.replace("127.0.0.1:8091", "127.0.0.1:" + streamable)
					.replace("127.0.0.1:8092", "127.0.0.1:" + json));
		log = Files.createTempFile("gateway", ".log");
		gateway = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
				System.getProperty("gateway.jar"), "--spring.profiles.active=demo", "--server.port=" + port,
				"--gateway.demo.upstream-port=" + streamable, "--gateway.demo.json-upstream-port=" + json,
				"--gateway.policy.location=" + policy)
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
		while (Instant.now().isBefore(deadline)) {
			try {
				if (get("/actuator/health/readiness").statusCode() == 200) {
					return;
				}
			}
			catch (IOException notYet) {
				// not listening yet
			}
			assertThat(gateway.isAlive()).as(Files.readString(log)).isTrue();
			Thread.sleep(250);
		}
		throw new IllegalStateException("The gateway did not become ready:\n" + Files.readString(log));
	}

	@AfterAll
	static void stop() {
		gateway.destroy();
	}

	@Test
	void newcomerWalkThroughWorks() throws Exception {
		String token = get("/demo/token").body().trim();

		HttpResponse<String> initialize = mcp("/mcp/demo/notes", token, null, null,
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
						+ "\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}");
		assertThat(initialize.statusCode()).isEqualTo(200);
		String session = initialize.headers().firstValue("Mcp-Session-Id").orElseThrow();
		assertThat(mcp("/mcp/demo/notes", token, session, null,
				"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
			.statusCode()).isEqualTo(202);
		HttpResponse<String> tools = mcp("/mcp/demo/notes", token, session, null,
				"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
		assertThat(tools.body()).contains("notes_create").doesNotContain("admin_reset");
		assertThat(mcp("/mcp/demo/notes", token, session, null,
				"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"notes_create\","
						+ "\"arguments\":{\"text\":\"hello\"}}}")
			.body()).contains("note 1 created");
		HttpResponse<String> denied = mcp("/mcp/demo/notes", token, session, null,
				"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"admin_reset\","
						+ "\"arguments\":{}}}");
		assertThat(denied.statusCode()).isEqualTo(200);
		assertThat(denied.body()).contains("\"code\":\"tool_not_granted\"");

		String key = UUID.randomUUID().toString();
		String call = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"notes_create\","
				+ "\"arguments\":{\"text\":\"once\"}}}";
		HttpResponse<String> first = mcp("/mcp/demo/notes-json", token, null, key, call);
		HttpResponse<String> retry = mcp("/mcp/demo/notes-json", token, null, key, call);
		assertThat(first.body()).contains("note 1 created");
		assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
	}

	/**
	 * The demo's issuer serves no RFC 8414 metadata, so the protected-resource metadata
	 * names no authorization server a client would look for one at (a host is pointed at
	 * the demo with a token from /demo/token, README.md).
	 */
	@Test
	void protectedResourceMetadataNamesNoAuthorizationServerTheDemoCannotServe() throws Exception {
		HttpResponse<String> metadata = get("/.well-known/oauth-protected-resource/mcp/demo/notes");

		assertThat(metadata.statusCode()).isEqualTo(200);
		assertThat(metadata.body()).contains("\"resource\":\"http://127.0.0.1:" + port + "/mcp/demo/notes\"")
			.doesNotContain("authorization_servers");
	}

	@Test
	void bothDemoServersAreServedBehindOneVirtualPath() throws Exception {
		String token = http
			.send(HttpRequest.newBuilder(uri("/demo/token")).build(), HttpResponse.BodyHandlers.ofString())
			.body()
			.strip();
		HttpResponse<String> initialize = mcp("/mcp/demo/workspace", token, null, null,
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
						+ "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}");
		String session = initialize.headers().firstValue("Mcp-Session-Id").orElseThrow();

		HttpResponse<String> list = mcp("/mcp/demo/workspace", token, session, null,
				"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
		HttpResponse<String> call = mcp("/mcp/demo/workspace", token, session, null,
				"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"json_echo\","
						+ "\"arguments\":{\"text\":\"through the workspace\"}}}");

		assertThat(initialize.body()).contains("\"name\":\"demo/workspace\"");
		assertThat(list.body()).contains("\"notes_echo\"")
			.contains("\"json_notes_create\"")
			.doesNotContain("admin_reset");
		assertThat(call.body()).contains("through the workspace");
	}

	private static HttpResponse<String> mcp(String path, String token, String session, String key, String body)
			throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
			.header("Authorization", "Bearer " + token)
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString(body));
		for (String[] header : List.of(new String[] { "Mcp-Session-Id", session },
				new String[] { "Idempotency-Key", key })) {
			if (header[1] != null) {
				request.header(header[0], header[1]);
			}
		}
		return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	@Test
	void demoOperatorGetsTheExplanationOfARefusal() throws Exception {
		String operator = get("/demo/token?human=demo-operator").body().trim();

		HttpResponse<String> explained = http.send(HttpRequest
			.newBuilder(uri(
					"/actuator/explain?server=/mcp/demo/notes&human=alice&agent=demo-agent&team=demo&tool=admin_reset"))
			.header("Authorization", "Bearer " + operator)
			.build(), HttpResponse.BodyHandlers.ofString());
		HttpResponse<String> notOperator = http.send(HttpRequest
			.newBuilder(uri("/actuator/explain?server=/mcp/demo/notes&human=alice&team=demo&tool=admin_reset"))
			.header("Authorization", "Bearer " + get("/demo/token").body().trim())
			.build(), HttpResponse.BodyHandlers.ofString());

		assertThat(explained.statusCode()).as(explained.body()).isEqualTo(200);
		assertThat(explained.body()).contains("\"allowed\":false").contains("\"errorCode\":\"tool_not_granted\"");
		assertThat(notOperator.statusCode()).isEqualTo(403);
	}

	@Test
	void startWithABadPolicyPrintsTheFailureReportOnlyAndExitsWithStatusOne() throws Exception {
		Path policy = Files.createTempFile("bad-policy", ".yaml");
		Files.writeString(policy, "servers:\n  - [a, b]\n");
		Path output = Files.createTempFile("bad-start", ".log");
		Process start = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
				System.getProperty("gateway.jar"), "--spring.profiles.active=demo", "--server.port=" + freePort(),
				"--gateway.demo.upstream-port=" + freePort(), "--gateway.demo.json-upstream-port=" + freePort(),
				"--gateway.policy.location=" + policy)
			.redirectErrorStream(true)
			.redirectOutput(output.toFile())
			.start();

		assertThat(start.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as("the process ends").isTrue();
		String printed = Files.readString(output);
		assertThat(start.exitValue()).isEqualTo(1);
		assertThat(printed).contains("APPLICATION FAILED TO START")
			.contains("line 2 (servers[0]): expected an object (namespace, name")
			.doesNotContain("appears to have started a thread")
			.doesNotContain("io.github.mcpgateway.policy.McpServerPolicy")
			.doesNotContain("\tat ");
	}

	private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return http.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
	}

	private static URI uri(String path) {
		return URI.create("http://127.0.0.1:" + port + path);
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
