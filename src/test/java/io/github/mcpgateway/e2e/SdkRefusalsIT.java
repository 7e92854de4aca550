package io.github.mcpgateway.e2e;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.McpHttpClientTransportAuthorizationException;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpTransportException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The gateway's refusals as the official SDKs hand them to an application (ADR 0014): the
 * TypeScript SDK v1 and v2 ({@code refusals-client.mjs}) and the Java SDK, through two
 * packaged gateways in front of one server-everything: one on the defaults
 * ({@code gateway.request.refusal-status: json-rpc}, the ADR's HTTP statuses for the
 * Idempotency-Key) and one on the alternative ({@code gateway.request.refusal-status:
 * http}, {@code gateway.idempotency.refusal-status: json-rpc}). An ungranted tool, an
 * ungranted server and an Idempotency-Key conflict reach the application as a protocol
 * error whose data carries the gateway's code wherever the gateway answers HTTP 200, and
 * everywhere through the documented client recipe ({@code readable-refusals.mjs},
 * {@link ReadableRefusals}); an answer with an HTTP error status is, to a plain SDK, the
 * transport error this class shows it to be. Skipped where {@code node} or {@code npm} is
 * missing.
 */
class SdkRefusalsIT {

	@RegisterExtension
	static final GatewayProcess defaults = new GatewayProcess("sdk-refusals-defaults");

	@RegisterExtension
	static final GatewayProcess alternative = new GatewayProcess("sdk-refusals-alternative");

	private static NodeInterop node;

	@BeforeAll
	static void startTheGateways() throws Exception {
		node = NodeInterop.installed();
		int everything = node.startServerEverything("sdk-refusals-everything").port();
		defaults.startInFrontOf(everything, 0);
		alternative.startInFrontOf(everything, 0, "--gateway.request.refusal-status=http",
				"--gateway.idempotency.refusal-status=json-rpc");
	}

	@AfterAll
	static void stopEverything() throws InterruptedException {
		alternative.stop();
		defaults.stopAfter(node);
	}

	static Stream<Arguments> typeScriptRuns() {
		return Stream.of("v1", "v2")
			.flatMap((sdk) -> Stream.of("defaults", "alternative")
				.flatMap((config) -> Stream.of(false, true).map((recipe) -> Arguments.of(sdk, config, recipe))));
	}

	@ParameterizedTest(name = "SDK {0}, {1}, recipe {2}")
	@MethodSource("typeScriptRuns")
	void typeScriptSdkRaisesARefusalAnsweredWith200AsAProtocolErrorWithTheGatewaysCode(String sdk, String config,
			boolean recipe) throws Exception {
		GatewayProcess gateway = "defaults".equals(config) ? defaults : alternative;
		boolean requestRefusalsAre200 = (gateway == defaults);
		boolean keyRefusalsAre200 = (gateway == alternative);
		NodeInterop.Finished run = node.run("refusals-" + sdk + "-" + config + (recipe ? "-recipe" : ""),
				Map.of("SDK", sdk, "RECIPE", recipe ? "readable-refusals" : "none", "MCP_URL",
						gateway.url(GatewayProcess.GUARDED), "UNGRANTED_URL", gateway.url(GatewayProcess.OPS_ONLY),
						"MCP_TOKEN", tokenFor(gateway), "DENIED_TOOL", "get-env", "KEYED_TOOL", "echo"),
				Duration.ofSeconds(60), "refusals-client.mjs");
		JsonNode report = run.report("TypeScript SDK " + sdk + " refusals through the gateway (" + config + ")");

		assertThat(report.get("failures").values()).isEmpty();
		assertRefusal(report.get("denied"), recipe || requestRefusalsAre200, -32002, "tool_not_granted", 403);
		assertRefusal(report.get("ungranted"), recipe || requestRefusalsAre200, -32002, "server_not_granted", 403);
		assertRefusal(report.get("conflict"), recipe || keyRefusalsAre200, -32008, "idempotency_key_conflict", 409);
	}

	@Test
	void javaSdkRaisesEachRefusalAnsweredWith200AsAProtocolError() {
		assertJavaRefusals(defaults, false, (error) -> assertCode(error, -32002, "tool_not_granted"),
				(error) -> assertCode(error, -32002, "server_not_granted"),
				(thrown) -> assertThat(thrown).isInstanceOf(McpTransportException.class).hasMessageContaining("409"));
		assertJavaRefusals(alternative, false,
				(thrown) -> assertThat(thrown).isInstanceOf(McpHttpClientTransportAuthorizationException.class),
				(thrown) -> assertThat(thrown).isInstanceOf(McpHttpClientTransportAuthorizationException.class),
				(error) -> assertCode(error, -32008, "idempotency_key_conflict"));
	}

	@Test
	void javaSdkWithTheRecipeRaisesEveryRefusalAsAProtocolError() {
		for (GatewayProcess gateway : new GatewayProcess[] { defaults, alternative }) {
			assertJavaRefusals(gateway, true, (error) -> assertCode(error, -32002, "tool_not_granted"),
					(error) -> assertCode(error, -32002, "server_not_granted"),
					(error) -> assertCode(error, -32008, "idempotency_key_conflict"));
		}
	}

	/**
	 * Calls an ungranted tool, initializes an ungranted server and repeats a key with
	 * other arguments through the Java SDK, handing each exception (the root cause) to
	 * its check.
	 */
	private static void assertJavaRefusals(GatewayProcess gateway, boolean recipe, Consumer<Throwable> denied,
			Consumer<Throwable> ungranted, Consumer<Throwable> conflict) {
		try (McpSyncClient client = client(gateway, GatewayProcess.GUARDED, null, recipe)) {
			client.initialize();
			assertThatThrownBy(() -> client.callTool(new CallToolRequest("get-env", Map.of())))
				.satisfies((thrown) -> denied.accept(McpError.findRootCause(thrown)));
		}
		try (McpSyncClient client = client(gateway, GatewayProcess.OPS_ONLY, null, recipe)) {
			assertThatThrownBy(client::initialize)
				.satisfies((thrown) -> ungranted.accept(McpError.findRootCause(thrown)));
		}
		try (McpSyncClient client = client(gateway, GatewayProcess.GUARDED, "java-conflict-" + recipe, recipe)) {
			client.initialize();
			client.callTool(new CallToolRequest("echo", Map.of("message", "first")));
			assertThatThrownBy(() -> client.callTool(new CallToolRequest("echo", Map.of("message", "other"))))
				.satisfies((thrown) -> conflict.accept(McpError.findRootCause(thrown)));
		}
	}

	/**
	 * A protocol error (the SDK's code and data) where {@code readable}; otherwise the
	 * transport error of the HTTP status.
	 */
	private static void assertRefusal(JsonNode refusal, boolean readable, int rpcCode, String dataCode, int status) {
		assertThat(refusal.get("thrown").asBoolean()).isTrue();
		if (readable) {
			assertThat(refusal.get("httpStatus").isNull()).as("not a transport error: %s", refusal).isTrue();
			assertThat(refusal.get("rpcCode").asInt()).isEqualTo(rpcCode);
			assertThat(refusal.get("dataCode").asString()).isEqualTo(dataCode);
			assertThat(refusal.get("dataStatus").asInt()).isEqualTo(status);
		}
		else {
			assertThat(refusal.get("httpStatus").asInt()).as("a transport error: %s", refusal).isEqualTo(status);
			assertThat(refusal.get("dataCode").isNull()).isTrue();
		}
	}

	private static void assertCode(Throwable thrown, int rpcCode, String dataCode) {
		assertThat(thrown).isInstanceOfSatisfying(McpError.class, (error) -> {
			assertThat(error.getJsonRpcError().code()).isEqualTo(rpcCode);
			assertThat(error.getJsonRpcError().data()).asString().contains("code=" + dataCode);
		});
	}

	private static String tokenFor(GatewayProcess gateway) {
		return TestJwts.jwt()
			.human("alice")
			.team("blue")
			.audience(gateway.url(GatewayProcess.GUARDED), gateway.url(GatewayProcess.OPS_ONLY))
			.sign();
	}

	/**
	 * A Java SDK client of {@code path}; with {@code key}, every tools/call carries it as
	 * its Idempotency-Key (the SDK's request customizer sees each request); with
	 * {@code recipe}, its HTTP client is {@link ReadableRefusals}.
	 */
	private static McpSyncClient client(GatewayProcess gateway, String path, String key, boolean recipe) {
		String url = gateway.url(path);
		HttpClientStreamableHttpTransport.Builder builder = HttpClientStreamableHttpTransport
			.builder(url.substring(0, url.indexOf("/mcp/")))
			.endpoint(url.substring(url.indexOf("/mcp/")))
			.requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + tokenFor(gateway)))
			.addHttpRequestCustomizer((request, method, uri, body, context) -> {
				if (key != null && "POST".equals(method) && IdempotentToolCalls.isToolCall(body)) {
					request.setHeader("Idempotency-Key", key);
				}
			});
		if (recipe) {
			builder.clientBuilder(ForwardingHttpClient.builder(HttpClient.newBuilder(), ReadableRefusals::new));
		}
		return McpClient.sync(builder.build()).requestTimeout(Duration.ofSeconds(30)).build();
	}

}
