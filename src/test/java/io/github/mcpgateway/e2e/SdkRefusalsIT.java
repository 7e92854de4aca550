package io.github.mcpgateway.e2e;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The gateway's refusals as the official SDKs hand them to an application (ADR 0014): the
 * TypeScript SDK v1 and v2 ({@code refusals-client.mjs}) and the Java SDK, through the
 * packaged gateway in front of server-everything, with the default
 * {@code gateway.request.refusal-status: json-rpc} and the alternative
 * {@code gateway.idempotency.refusal-status: json-rpc}: an ungranted tool, an ungranted
 * server and an Idempotency-Key conflict each reach the application as a protocol error
 * whose data carries the gateway's code. Skipped where {@code node} or {@code npm} is
 * missing.
 */
class SdkRefusalsIT {

	@RegisterExtension
	static final GatewayProcess gateway = new GatewayProcess("sdk-refusals");

	private static NodeInterop node;

	private static String token;

	@BeforeAll
	static void startTheGateway() throws Exception {
		node = NodeInterop.installed();
		gateway.startInFrontOf(node.startServerEverything("sdk-refusals-everything").port(), 0,
				"--gateway.idempotency.refusal-status=json-rpc");
		token = TestJwts.jwt()
			.human("alice")
			.team("blue")
			.audience(gateway.url(GatewayProcess.GUARDED), gateway.url(GatewayProcess.OPS_ONLY))
			.sign();
	}

	@AfterAll
	static void stopEverything() throws InterruptedException {
		gateway.stopAfter(node);
	}

	@ParameterizedTest
	@ValueSource(strings = { "v1", "v2" })
	void typeScriptSdkRaisesEachRefusalAsAProtocolErrorWithTheGatewaysCode(String sdk) throws Exception {
		NodeInterop.Finished run = node.run("refusals-" + sdk,
				Map.of("SDK", sdk, "MCP_URL", gateway.url(GatewayProcess.GUARDED), "UNGRANTED_URL",
						gateway.url(GatewayProcess.OPS_ONLY), "MCP_TOKEN", token, "DENIED_TOOL", "get-env",
						"KEYED_TOOL", "echo"),
				Duration.ofSeconds(60), "refusals-client.mjs");
		JsonNode report = run.report("TypeScript SDK " + sdk + " refusals through the gateway");

		assertThat(report.get("failures").values()).isEmpty();
		assertProtocolError(report.get("denied"), -32002, "tool_not_granted", 403);
		assertProtocolError(report.get("ungranted"), -32002, "server_not_granted", 403);
		assertProtocolError(report.get("conflict"), -32008, "idempotency_key_conflict", 409);
	}

	@Test
	void javaSdkRaisesEachRefusalAsAProtocolErrorWithTheGatewaysCode() {
		try (McpSyncClient client = client(GatewayProcess.GUARDED, null)) {
			client.initialize();
			assertThatThrownBy(() -> client.callTool(new CallToolRequest("get-env", Map.of())))
				.isInstanceOfSatisfying(McpError.class, (error) -> assertCode(error, -32002, "tool_not_granted"));
		}
		try (McpSyncClient client = client(GatewayProcess.OPS_ONLY, null)) {
			assertThatThrownBy(client::initialize).satisfies((thrown) -> {
				McpError error = (McpError) McpError.findRootCause(thrown);
				assertCode(error, -32002, "server_not_granted");
			});
		}
		try (McpSyncClient client = client(GatewayProcess.GUARDED, "java-conflict-key")) {
			client.initialize();
			client.callTool(new CallToolRequest("echo", Map.of("message", "first")));
			assertThatThrownBy(() -> client.callTool(new CallToolRequest("echo", Map.of("message", "other"))))
				.isInstanceOfSatisfying(McpError.class,
						(error) -> assertCode(error, -32008, "idempotency_key_conflict"));
		}
	}

	private static void assertProtocolError(JsonNode refusal, int rpcCode, String dataCode, int status) {
		assertThat(refusal.get("thrown").asBoolean()).isTrue();
		assertThat(refusal.get("httpStatus").isNull()).as("not a transport error: %s", refusal).isTrue();
		assertThat(refusal.get("rpcCode").asInt()).isEqualTo(rpcCode);
		assertThat(refusal.get("dataCode").asString()).isEqualTo(dataCode);
		assertThat(refusal.get("dataStatus").asInt()).isEqualTo(status);
	}

	private static void assertCode(McpError error, int rpcCode, String dataCode) {
		assertThat(error.getJsonRpcError().code()).isEqualTo(rpcCode);
		assertThat(error.getJsonRpcError().data()).asString().contains("code=" + dataCode);
	}

	/**
	 * A Java SDK client of {@code path}; with {@code key}, every tools/call carries it as
	 * its Idempotency-Key (the SDK's request customizer sees each request).
	 */
	private static McpSyncClient client(String path, String key) {
		String url = gateway.url(path);
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder(url.substring(0, url.indexOf("/mcp/")))
			.endpoint(url.substring(url.indexOf("/mcp/")))
			.requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
			.addHttpRequestCustomizer((request, method, uri, body, context) -> {
				if (key != null && "POST".equals(method) && IdempotentToolCalls.isToolCall(body)) {
					request.setHeader("Idempotency-Key", key);
				}
			})
			.build();
		return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build();
	}

}
