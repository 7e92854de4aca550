package io.github.mcpgateway.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import io.github.mcpgateway.demo.DemoMcpServer;
import io.github.mcpgateway.guard.UpstreamResilience;
import io.github.mcpgateway.policy.PolicyReloader;
import io.github.mcpgateway.revocation.RevocationSync;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Base of the integration tests: the real application on a random port, verifying real
 * RS256 tokens against a JWKS served over HTTP, in front of real HTTP upstreams. Every
 * subclass shares one application context (same properties), so the suite starts the
 * gateway once. A subclass that needs other settings overrides them with a
 * {@code @TestPropertySource} of its own (and gets a context of its own).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestPropertySource(properties = { "gateway.identity.oauth.audiences=" + TestJwks.AUDIENCE,
		"gateway.identity.operators[0].human=ops-*",
		"spring.cloud.gateway.server.webmvc.trusted-proxies=127\\\\.0\\\\.0\\\\.1",
		"gateway.proxy.first-byte-timeout=1s", "gateway.proxy.idle-timeout=1500ms",
		"gateway.proxy.bulkhead.max-concurrent-calls=4", "gateway.proxy.circuit-breaker.sliding-window-size=4",
		"gateway.proxy.circuit-breaker.minimum-number-of-calls=4" })
public abstract class GatewayIntegrationTest {

	protected static final TestUpstream upstream = TestUpstream.start();

	protected static final DemoMcpServer sdkStreamServer = DemoMcpServer.start(0, DemoMcpServer.Mode.STREAMABLE);

	protected static final DemoMcpServer sdkJsonServer = DemoMcpServer.start(0, DemoMcpServer.Mode.STATELESS);

	protected static final TestPolicy policy = new TestPolicy(upstream.url(""), sdkStreamServer.url(),
			sdkJsonServer.url());

	protected static final TestRevocations revocations = new TestRevocations();

	protected static final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	@LocalServerPort
	protected int port;

	@Autowired
	protected PolicyReloader policyReloader;

	@Autowired
	protected RevocationSync revocationSync;

	@DynamicPropertySource
	static void gatewayProperties(DynamicPropertyRegistry registry) {
		registry.add("gateway.identity.oauth.issuer", () -> TestJwks.ISSUER);
		registry.add("gateway.identity.oauth.jwk-set-uri", () -> TestJwks.get().jwksUri());
		registry.add("gateway.policy.location", () -> policy.file().toString());
		registry.add("gateway.revocation.source", () -> revocations.file().toString());
	}

	@Autowired
	protected UpstreamResilience upstreamResilience;

	@BeforeEach
	void resetUpstreamAndCircuits() {
		upstream.reset();
		this.upstreamResilience.circuitBreakers().getAllCircuitBreakers().forEach(CircuitBreaker::reset);
	}

	@AfterEach
	void restorePolicyAndRevocations() {
		policy.restore();
		this.policyReloader.reloadNow();
		revocations.clear();
		this.revocationSync.syncNow();
	}

	/** Sends {@code initialize} and returns the session id the gateway bound. */
	protected String initialize(String path, String token) {
		HttpResponse<String> response = post(path, token,
				"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{}}");
		return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
	}

	protected URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	/** POST of a JSON-RPC body with a bearer token (none when {@code token} is null). */
	protected HttpResponse<String> post(String path, String token, String json, String... headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
			.timeout(Duration.ofSeconds(20))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString(json));
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		if (headers.length > 0) {
			request.headers(headers);
		}
		return send(request.build());
	}

	protected HttpResponse<String> send(HttpRequest request) {
		return TestHttp.send(http, request);
	}

	/** A JSON-RPC request of {@code method} with {@code params} (a JSON object). */
	protected static String jsonRpc(int id, String method, String params) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}";
	}

	protected static String toolCall(int id, String tool) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
				+ "\",\"arguments\":{\"text\":\"secret-argument-" + id + "\"}}}";
	}

	/**
	 * {@code /actuator/explain?<query>} (values encoded here) as the tests' operator
	 * ({@code ops-anna}); the answer must be 200.
	 */
	protected JsonNode explain(String query) {
		HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/actuator/explain?" + TestHttp.query(query)))
			.header("Authorization", "Bearer " + TestJwts.jwt().human("ops-anna").sign())
			.build());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return JsonMapper.builder().build().readTree(response.body());
	}

	protected static String validToken() {
		return TestJwts.jwt().sign();
	}

}
