package io.github.mcpgateway.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The official TypeScript SDK client ({@code src/test/node/client.mjs}) against the
 * reference server-everything, through the packaged gateway on an {@code oauth} server
 * that grants every tool but {@code get-env}. The client runs once; each test checks one
 * part of its JSON report. Skipped where {@code node} or {@code npm} is missing.
 */
class TypeScriptSdkIT {

	@RegisterExtension
	static final GatewayProcess gateway = new GatewayProcess("typescript-sdk");

	private static NodeInterop node;

	private static JsonNode report;

	@BeforeAll
	static void runTheClientThroughTheGateway() throws Exception {
		node = NodeInterop.installed();
		gateway.startInFrontOf(node.startServerEverything("typescript-sdk-everything").port());
		// RFC 8707: the token names the server's resource URI as its audience, as a
		// spec-following client asks the authorization server to.
		String token = TestJwts.jwt()
			.human("alice")
			.team("blue")
			.agent("interop-agent")
			.audience(gateway.url(GatewayProcess.GUARDED))
			.sign();
		NodeInterop.Finished client = node.run(
				"typescript-sdk-client", Map.of("MCP_URL", gateway.url(GatewayProcess.GUARDED), "MCP_TOKEN", token,
						"DENIED_TOOL", "get-env", "EXPECT_DENIED_CODE", "tool_not_granted"),
				Duration.ofSeconds(90), "client.mjs");
		report = client.report("TypeScript SDK client through the gateway");
	}

	@AfterAll
	static void stopEverything() throws InterruptedException {
		gateway.stopAfter(node);
	}

	@Test
	void clientPassesEveryCheckOfItsOwn() {
		assertThat(report.get("failures").values()).isEmpty();
		assertThat(report.get("ok").asBoolean()).isTrue();
	}

	@Test
	void connectsAndListsOnlyTheGrantedTools() {
		assertThat(report.get("sessionId").isString()).as("session id").isTrue();
		assertThat(report.get("server").get("name").asString()).isEqualTo("mcp-servers/everything");
		assertThat(strings(report.get("tools"))).contains("echo", "trigger-long-running-operation")
			.doesNotContain("get-env");
	}

	@Test
	void grantedToolCallsReturnTheirResults() {
		assertThat(report.get("calls").values()).hasSize(3).allSatisfy((call) -> {
			assertThat(call.get("isError").asBoolean()).as(call.toString()).isFalse();
		});
		assertThat(report.get("calls").get(1).get("text").asString()).contains("42");
		assertThat(report.get("calls").get(2).get("structured").get("temperature").isNumber()).isTrue();
	}

	@Test
	void progressNotificationsArriveAsTheyAreSent() {
		// 3 steps over 3 s: one notification a second, each relayed as it is sent.
		JsonNode progress = report.get("progress");
		assertThat(strings(progress.get("notifications"))).containsExactly("1/3", "2/3", "3/3");
		List<Long> timestamps = new ArrayList<>();
		progress.get("timestamps").values().forEach((t) -> timestamps.add(t.asLong()));
		List<Long> gaps = new ArrayList<>();
		for (int i = 1; i < timestamps.size(); i++) {
			gaps.add(timestamps.get(i) - timestamps.get(i - 1));
		}
		System.out.println("progress: first after " + progress.get("firstAfterMs") + " ms, gaps " + gaps + " ms");
		assertThat(progress.get("firstAfterMs").asLong()).isBetween(700L, 1300L);
		assertThat(gaps).hasSize(2).allSatisfy((gap) -> assertThat(gap).isBetween(700L, 1300L));
	}

	@Test
	void resourcesAndPromptsAreServed() {
		assertThat(report.get("resource").get("text").asString()).startsWith("Resource 1:");
		assertThat(report.get("prompt").get("text").asString()).contains("Berlin");
	}

	@Test
	void serverToClientRequestsReachTheClientAndItsAnswersReachTheServer() {
		for (String kind : List.of("sampling", "elicitation")) {
			JsonNode result = report.get(kind);
			assertThat(result.get("handlerCalls").asInt()).as(kind).isEqualTo(1);
			assertThat(result.get("echoed").asBoolean()).as(kind).isTrue();
		}
	}

	@Test
	void ungrantedToolIsRefusedWithToolNotGranted() {
		JsonNode denied = report.get("denied");
		assertThat(denied.get("thrown").asBoolean()).isTrue();
		// A protocol error (ADR 0014): the SDK's own McpError, not a transport error.
		assertThat(denied.get("errorClass").asString()).isEqualTo("McpError");
		assertThat(denied.get("httpStatus").isNull()).isTrue();
		assertThat(denied.get("rpcCode").asInt()).isEqualTo(-32002);
		assertThat(denied.get("dataCode").asString()).isEqualTo("tool_not_granted");
	}

	@Test
	void deleteEndsTheSession() {
		assertThat(report.get("deleted").asBoolean()).isTrue();
	}

	private static List<String> strings(JsonNode array) {
		return array.valueStream().map(JsonNode::asString).toList();
	}

}
