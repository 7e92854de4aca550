package io.github.mcpgateway.tracing;

import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import io.github.mcpgateway.architecture.RequestFiltersTest;
import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.RawHttp;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestOtlpReceiver;
import io.github.mcpgateway.support.TestOtlpReceiver.ExportedSpan;
import io.github.mcpgateway.support.TestUpstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tracing turned on as configuration.md says, exporting OTLP/HTTP to a receiver that
 * decodes the real wire format: the server span of an MCP request joins the caller's
 * trace and is named after the request; a refusal carries its {@code data.code}; a
 * caller's unsampled flag does not switch recording off and a sampled one would not
 * switch it on ({@code incoming-sampling: ignore}, the default); no span holds a token or
 * an argument.
 */
@ExtendWith(OutputCaptureExtension.class)
@TestPropertySource(properties = { "gateway.tracing.enabled=true", "management.tracing.sampling.probability=1.0",
		"management.opentelemetry.tracing.export.schedule-delay=100ms",
		"management.opentelemetry.resource-attributes.[deployment.environment.name]=test" })
class TracingIntegrationTest extends GatewayIntegrationTest {

	private static final TestOtlpReceiver receiver = TestOtlpReceiver.start();

	private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

	private static final String CLIENT_SPAN_ID = "00f067aa0ba902b7";

	@DynamicPropertySource
	static void exportToTheReceiver(DynamicPropertyRegistry registry) {
		registry.add("management.opentelemetry.tracing.export.otlp.endpoint", receiver::endpoint);
	}

	private final String token = TestJwts.jwt().human("alice").team("blue").sign();

	@Test
	void aToolCallsServerSpanIsAChildOfTheCallersSpanNamedAfterTheToolWithNoSecretInIt() {
		String traceId = trace("01");
		HttpResponse<String> reply = post("/mcp/test/echo", this.token, toolCall(7, "echo"), "traceparent",
				"00-" + traceId + "-" + CLIENT_SPAN_ID + "-01");
		assertThat(reply.statusCode()).isEqualTo(200);

		ExportedSpan server = serverSpanOf(traceId);

		assertThat(server.parentSpanId()).isEqualTo(CLIENT_SPAN_ID);
		assertThat(server.name()).isEqualTo("tools/call echo");
		assertThat(server.attributes()).containsEntry("mcp.method.name", "tools/call")
			.containsEntry("gen_ai.tool.name", "echo")
			.containsEntry("gen_ai.operation.name", "execute_tool")
			.containsEntry("jsonrpc.request.id", "7")
			.containsEntry("mcp_gateway.server", "test/echo")
			.containsEntry("mcp_gateway.decision", "allowed")
			.doesNotContainKey("error.type");
		assertThat(server.resource()).containsEntry("deployment.environment.name", "test");
		ExportedSpan client = clientSpanOf(traceId);
		assertThat(client.parentSpanId()).as("the upstream call is a child of the server span")
			.isEqualTo(server.spanId());
		assertThat(client.name()).isEqualTo("tools/call echo");
		assertThat(upstream.received()).last()
			.extracting((received) -> received.header("traceparent"))
			.as("the upstream's parent is the gateway's client span, not the caller's")
			.isEqualTo("00-" + traceId + "-" + client.spanId() + "-01");
		assertThat(stageSpansOf(traceId, server)).containsKeys("gateway.identity", "gateway.session", "gateway.policy",
				"gateway.upstream_guard");
		assertThat(stageSpansOf(traceId, server).get("gateway.policy").attributes())
			.containsEntry("mcp_gateway.stage", "policy")
			.containsEntry("mcp_gateway.stage.outcome", "continued")
			.containsEntry("mcp_gateway.grant", "grants[0]");
		assertThat(stageSpansOf(traceId, server).get("gateway.identity").attributes())
			.containsEntry("mcp_gateway.identity.verified", "true");
		assertThat(receiver.spansOf(traceId)).noneMatch(ExportedSpan::failed);
		assertNothingSecretIn(receiver.spansOf(traceId));
	}

	@Test
	void traceContextOnlyInMetaJoinsThatTraceAndReachesTheUpstreamAsTheClientSpanInPlace() {
		String traceId = trace("07");
		String body = metaToolCall(13, "00-" + traceId + "-" + CLIENT_SPAN_ID + "-01", "vendor=opaque");
		HttpResponse<String> reply = post("/mcp/test/echo", this.token, body);
		assertThat(reply.statusCode()).isEqualTo(200);

		ExportedSpan server = serverSpanOf(traceId);
		ExportedSpan client = clientSpanOf(traceId);

		assertThat(server.parentSpanId()).isEqualTo(CLIENT_SPAN_ID);
		assertThat(client.parentSpanId()).isEqualTo(server.spanId());
		String upstreamParent = "00-" + traceId + "-" + client.spanId() + "-01";
		TestUpstream.Received received = upstream.received().get(upstream.count() - 1);
		assertThat(received.header("traceparent")).isEqualTo(upstreamParent);
		assertThat(new String(received.body(), StandardCharsets.UTF_8))
			.as("the body as sent, but for the traceparent value, which names the client span")
			.isEqualTo(metaToolCall(13, upstreamParent, "vendor=opaque"));
		assertThat(received.header("tracestate")).isEqualTo("vendor=opaque");
		assertNothingSecretIn(receiver.spansOf(traceId));
	}

	@Test
	void whenHeadersAndMetaBothCarryContextTheHeadersWinAndMetaNamesTheClientSpan() {
		String headerTrace = trace("08");
		String metaTrace = trace("09");
		post("/mcp/test/echo", this.token, metaToolCall(14, "00-" + metaTrace + "-" + CLIENT_SPAN_ID + "-01", null),
				"traceparent", "00-" + headerTrace + "-" + CLIENT_SPAN_ID + "-01");

		ExportedSpan client = clientSpanOf(headerTrace);

		assertThat(serverSpanOf(headerTrace).parentSpanId()).isEqualTo(CLIENT_SPAN_ID);
		assertThat(receiver.spansOf(metaTrace)).isEmpty();
		assertThat(new String(upstream.received().get(upstream.count() - 1).body(), StandardCharsets.UTF_8))
			.isEqualTo(metaToolCall(14, "00-" + headerTrace + "-" + client.spanId() + "-01", null));
	}

	@Test
	void aBodyWithoutTraceContextReachesTheUpstreamByteForByte() {
		String traceId = trace("0a");
		String body = toolCall(15, "echo");
		post("/mcp/test/echo", this.token, body, "traceparent", "00-" + traceId + "-" + CLIENT_SPAN_ID + "-01");

		clientSpanOf(traceId);

		assertThat(upstream.received().get(upstream.count() - 1).body())
			.isEqualTo(body.getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void aCallerIdentityRefusesHasAFailedIdentitySpanAndNoStageSpans() {
		String traceId = trace("0b");
		HttpResponse<String> reply = post("/mcp/test/echo", null, toolCall(16, "echo"), "traceparent",
				"00-" + traceId + "-" + CLIENT_SPAN_ID + "-01");
		assertThat(reply.statusCode()).isEqualTo(401);

		ExportedSpan server = serverSpanOf(traceId);
		ExportedSpan identity = stageSpansOf(traceId, server).get("gateway.identity");

		assertThat(identity.failed()).isTrue();
		assertThat(identity.attributes()).containsEntry("error.type", "401");
		assertThat(server.failed()).isTrue();
		assertThat(stageSpansOf(traceId, server)).containsOnlyKeys("gateway.identity");
	}

	@Test
	void aStreamedReplyEndsTheClientSpanWhenTheStreamEnds() {
		upstream.reply(Replies.sse(List.of(event("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}"),
				event("{\"jsonrpc\":\"2.0\",\"id\":17,\"result\":{}}")), 200));
		String traceId = trace("0c");
		HttpResponse<String> reply = post("/mcp/test/echo", this.token, toolCall(17, "echo"), "traceparent",
				"00-" + traceId + "-" + CLIENT_SPAN_ID + "-01");
		assertThat(reply.body()).contains("\"id\":17");

		ExportedSpan client = clientSpanOf(traceId);
		ExportedSpan server = serverSpanOf(traceId);

		assertThat(client.durationNanos()).as("the client span covers the relayed stream")
			.isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos());
		assertThat(server.durationNanos()).isGreaterThanOrEqualTo(client.durationNanos());
	}

	@Test
	void aRefusedCallReachesNoUpstreamAndHasNoClientSpan() {
		String traceId = trace("06");
		post("/mcp/test/echo", this.token, toolCall(12, "admin_reset"), "traceparent",
				"00-" + traceId + "-" + CLIENT_SPAN_ID + "-01");

		serverSpanOf(traceId);

		assertThat(receiver.spansOf(traceId)).noneMatch((span) -> span.kind().equals("SPAN_KIND_CLIENT"));
	}

	@Test
	void theAuditLinesOfACallAndOfItsReplayNameTheirTracesAndTheReplaysSpanItsOutcome(CapturedOutput output) {
		String first = trace("04");
		String retry = trace("05");
		String key = "trace-key-" + UUID.randomUUID();
		post("/mcp/test/echo", this.token, toolCall(11, "echo"), "traceparent",
				"00-" + first + "-" + CLIENT_SPAN_ID + "-01", "Idempotency-Key", key);
		HttpResponse<String> replay = post("/mcp/test/echo", this.token, toolCall(11, "echo"), "traceparent",
				"00-" + retry + "-" + CLIENT_SPAN_ID + "-01", "Idempotency-Key", key);
		assertThat(replay.headers().firstValue("Idempotency-Replayed")).hasValue("true");

		assertThat(serverSpanOf(first).attributes()).containsEntry("mcp_gateway.idempotency", "first");
		ExportedSpan replayed = serverSpanOf(retry);
		assertThat(replayed.attributes()).containsEntry("mcp_gateway.idempotency", "replay");
		assertThat(stageSpansOf(retry, replayed).get("gateway.idempotency").attributes())
			.containsEntry("mcp_gateway.idempotency", "replay")
			.containsEntry("mcp_gateway.stage.outcome", "answered");
		assertThat(receiver.spansOf(retry)).noneMatch((span) -> span.kind().equals("SPAN_KIND_CLIENT"));
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			assertThat(auditLine(output, first)).contains("\"idempotency\":\"first\"");
			assertThat(auditLine(output, retry)).contains("\"idempotency\":\"replay\"")
				.contains("\"span_id\":\"" + replayed.spanId() + "\"");
		});
		assertNothingSecretIn(receiver.spansOf(retry));
		assertThat(receiver.spans()).allSatisfy((span) -> assertThat(span.everything()).doesNotContain(key));
	}

	@Test
	void aRefusedCallsSpanCarriesTheGatewaysCode() {
		String traceId = trace("02");
		HttpResponse<String> reply = post("/mcp/test/echo", this.token, toolCall(8, "admin_reset"), "traceparent",
				"00-" + traceId + "-" + CLIENT_SPAN_ID + "-01");
		assertThat(reply.body()).contains("\"code\":\"tool_not_granted\"");

		ExportedSpan server = serverSpanOf(traceId);

		assertThat(server.name()).isEqualTo("tools/call admin_reset");
		assertThat(server.attributes()).containsEntry("error.type", "tool_not_granted")
			.containsEntry("mcp_gateway.decision", "denied");
		assertThat(server.failed()).isTrue();
		assertThat(server.statusMessage()).isEqualTo("tool_not_granted");
		ExportedSpan policySpan = stageSpansOf(traceId, server).get("gateway.policy");
		assertThat(policySpan.failed()).isTrue();
		assertThat(policySpan.attributes()).containsEntry("error.type", "tool_not_granted")
			.containsEntry("mcp_gateway.stage.outcome", "refused")
			.doesNotContainKey("mcp_gateway.grant");
		assertThat(stageSpansOf(traceId, server)).as("no stage after the refusing one")
			.doesNotContainKeys("gateway.idempotency", "gateway.upstream_guard");
		assertNothingSecretIn(receiver.spansOf(traceId));
	}

	@Test
	void aHugeToolNameReachesTheSpansBounded() {
		String traceId = trace("1a");
		String tool = "t".repeat(300_000);
		post("/mcp/test/echo", this.token, toolCall(9, tool), "traceparent",
				"00-" + traceId + "-" + CLIENT_SPAN_ID + "-01");

		ExportedSpan server = serverSpanOf(traceId);

		String bounded = io.github.mcpgateway.redact.ShownText.bounded(tool);
		assertThat(bounded).hasSizeLessThanOrEqualTo(128);
		assertThat(server.name()).isEqualTo("tools/call " + bounded);
		assertThat(server.attributes()).containsEntry("gen_ai.tool.name", bounded);
		assertThat(receiver.spansOf(traceId))
			.allSatisfy((span) -> assertThat(span.everything()).as(span.name()).doesNotContain("t".repeat(200)));
	}

	@Test
	void aCallersUnsampledFlagDoesNotDecideWhetherTheGatewayRecords() {
		String traceId = trace("03");
		post("/mcp/test/echo", this.token, toolCall(9, "echo"), "traceparent",
				"00-" + traceId + "-" + CLIENT_SPAN_ID + "-00");

		assertThat(serverSpanOf(traceId).parentSpanId()).isEqualTo(CLIENT_SPAN_ID);
	}

	@Test
	void aRequestWithoutTraceContextStartsATraceOfItsOwn() {
		int before = receiver.spans().size();
		post("/mcp/test/echo", this.token, "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/list\"}");

		await().atMost(Duration.ofSeconds(10))
			.until(() -> receiver.spans()
				.stream()
				.skip(before)
				.anyMatch((span) -> span.name().equals("tools/list") && span.parentSpanId().isEmpty()));
	}

	@Test
	void metaContextIsReadAheadOfTheServerSpanAndTheIdentitySpanOpensJustAheadOfSpringSecurity(
			@Autowired ListableBeanFactory beans) {
		assertThat(RequestFiltersTest.servletFilters(beans)).containsExactly("MetaTraceContextFilter",
				"ServerHttpObservationFilter", "ClientAddressLimitFilter", "ServerResolutionFilter",
				"OrderedRequestContextFilter", "IdentitySpanFilter", "springSecurityFilterChain",
				"PrincipalLimitFilter", "VirtualServerFilter", "McpPipelineFilter");
	}

	@Test
	void logLinesCarryTraceIds(@Autowired Environment environment) {
		assertThat(environment.getProperty("logging.expect-correlation-id", Boolean.class)).isTrue();
	}

	@Test
	void aClientThatLeavesAStreamLeavesNoSpanOpen() throws Exception {
		List<String> events = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			events
				.add(event("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"n\":" + i + "}}"));
		}
		upstream.reply(Replies.sse(events, 100));
		String traceId = trace("0d");
		try (Socket socket = RawHttp.open(this.port,
				RawHttp.post("/mcp/test/echo", toolCall(18, "echo"), "Authorization: Bearer " + this.token,
						"Accept: application/json, text/event-stream",
						"traceparent: 00-" + traceId + "-" + CLIENT_SPAN_ID + "-01"))) {
			socket.setSoTimeout(5000);
			assertThat(socket.getInputStream().read(new byte[256])).isPositive();
		}

		ExportedSpan client = clientSpanOf(traceId);
		ExportedSpan server = serverSpanOf(traceId);

		assertThat(client.parentSpanId()).isEqualTo(server.spanId());
		assertThat(server.durationNanos()).isGreaterThanOrEqualTo(client.durationNanos());
	}

	private static String event(String json) {
		return "data: " + json + "\n\n";
	}

	private static String metaToolCall(int id, String traceparent, String tracestate) {
		String meta = "\"traceparent\":\"" + traceparent + "\""
				+ ((tracestate != null) ? ",\"tracestate\":\"" + tracestate + "\"" : "");
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id
				+ ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"_meta\":{\"progressToken\":3," + meta
				+ "},\"arguments\":{\"text\":\"secret-argument-" + id + "\"}}}";
	}

	/** The gateway's stage spans under {@code server}, once the identity span arrived. */
	private static Map<String, ExportedSpan> stageSpansOf(String traceId, ExportedSpan server) {
		return receiver.stageSpans(traceId, server, "gateway.identity");
	}

	private static String auditLine(CapturedOutput output, String traceId) {
		return output.getOut()
			.lines()
			.filter((line) -> line.contains("mcp.audit") && line.contains("\"trace_id\":\"" + traceId + "\""))
			.findFirst()
			.orElse("");
	}

	private static String trace(String suffix) {
		return TRACE_ID.substring(0, TRACE_ID.length() - 2) + suffix;
	}

	private static ExportedSpan serverSpanOf(String traceId) {
		return spanOf(traceId, "SPAN_KIND_SERVER");
	}

	private static ExportedSpan clientSpanOf(String traceId) {
		return spanOf(traceId, "SPAN_KIND_CLIENT");
	}

	private static ExportedSpan spanOf(String traceId, String kind) {
		return receiver.awaitSpan(traceId, kind);
	}

	private void assertNothingSecretIn(List<ExportedSpan> spans) {
		assertThat(spans).isNotEmpty();
		for (ExportedSpan span : spans) {
			assertThat(span.everything()).doesNotContain("secret-argument")
				.doesNotContain(this.token)
				.doesNotContain("Bearer");
		}
	}

}
