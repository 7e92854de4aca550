package io.github.mcpgateway.tracing;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestOtlpReceiver;
import io.github.mcpgateway.support.TestOtlpReceiver.ExportedSpan;

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
		assertNothingSecretIn(receiver.spansOf(traceId));
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
		assertNothingSecretIn(receiver.spansOf(traceId));
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
	void logLinesCarryTraceIds(@Autowired Environment environment) {
		assertThat(environment.getProperty("logging.expect-correlation-id", Boolean.class)).isTrue();
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

	/** The first span of {@code kind} exported in {@code traceId}, once it arrives. */
	private static ExportedSpan spanOf(String traceId, String kind) {
		await().atMost(Duration.ofSeconds(10))
			.until(() -> receiver.spansOf(traceId).stream().anyMatch((span) -> span.kind().equals(kind)));
		return receiver.spansOf(traceId).stream().filter((span) -> span.kind().equals(kind)).findFirst().orElseThrow();
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
