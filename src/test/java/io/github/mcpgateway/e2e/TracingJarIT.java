package io.github.mcpgateway.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestOtlpReceiver;
import io.github.mcpgateway.support.TestOtlpReceiver.ExportedSpan;
import io.github.mcpgateway.support.TestUpstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 28's acceptance on the packaged jar, configured as configuration.md says: with
 * tracing on and OTLP/HTTP export to a receiver that decodes the wire format with the
 * official OpenTelemetry protobuf definitions, in front of a real HTTP upstream, a tool
 * call's trace runs from the client's span through the gateway's server span and its
 * stage spans to the upstream call's client span, whose {@code traceparent} the upstream
 * receives (in the headers, and in {@code _meta} when the message had it there); a
 * refusal and a replay have their own spans and no upstream span; every audit line names
 * its trace; no span holds a token, a key, arguments or a result. With tracing off (the
 * default), the jar runs no exporter thread and its audit lines name no trace.
 */
class TracingJarIT {

	private static final String CLIENT_SPAN = "00f067aa0ba902b7";

	private static final String RESULT_SECRET = "secret-result-" + UUID.randomUUID();

	private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@RegisterExtension
	static final GatewayProcess traced = new GatewayProcess("tracing-on");

	@RegisterExtension
	static final GatewayProcess untraced = new GatewayProcess("tracing-off");

	private static TestOtlpReceiver receiver;

	private static TestUpstream upstream;

	@BeforeAll
	static void start() throws Exception {
		Files.createDirectories(NodeInterop.LOGS);
		receiver = TestOtlpReceiver.start();
		upstream = TestUpstream.start();
		int port = URI.create(upstream.url("")).getPort();
		traced.startInFrontOf(port, 0, "--gateway.tracing.enabled=true",
				"--management.opentelemetry.tracing.export.otlp.endpoint=" + receiver.endpoint(),
				"--management.tracing.sampling.probability=1.0",
				"--management.opentelemetry.tracing.export.schedule-delay=100ms",
				"--management.opentelemetry.resource-attributes.service.name=gateway-under-test");
		untraced.startInFrontOf(port, 0);
	}

	@AfterAll
	static void stop() throws InterruptedException {
		traced.stop();
		untraced.stop();
		assertThat(receiver.spans()).as("every span exported in the class").isNotEmpty().allSatisfy((span) -> {
			assertThat(span.everything()).doesNotContain("secret-argument")
				.doesNotContain(RESULT_SECRET)
				.doesNotContain("jar-trace-key-")
				.doesNotContain("Bearer")
				.doesNotContain("eyJ");
		});
	}

	@Test
	void aToolCallIsOneTraceFromTheClientsSpanToTheUpstreamCall() throws Exception {
		upstream.reply(Replies.jsonResult("{\"content\":[{\"type\":\"text\",\"text\":\"" + RESULT_SECRET + "\"}]}"));
		String traceId = traceId();
		String body = toolCall(1, "echo", null);

		HttpResponse<String> reply = post(traced, body, "traceparent", "00-" + traceId + "-" + CLIENT_SPAN + "-01");

		assertThat(reply.statusCode()).isEqualTo(200);
		ExportedSpan server = span(traceId, "SPAN_KIND_SERVER");
		ExportedSpan client = span(traceId, "SPAN_KIND_CLIENT");
		assertThat(server.parentSpanId()).isEqualTo(CLIENT_SPAN);
		assertThat(server.name()).isEqualTo("tools/call echo");
		assertThat(server.resource()).containsEntry("service.name", "gateway-under-test");
		assertThat(stages(traceId, server)).containsKeys("gateway.identity", "gateway.session", "gateway.policy",
				"gateway.upstream_guard");
		assertThat(client.parentSpanId()).isEqualTo(server.spanId());
		TestUpstream.Received received = lastReceived();
		assertThat(received.header("traceparent")).isEqualTo("00-" + traceId + "-" + client.spanId() + "-01");
		assertThat(received.body()).as("a body without trace context goes on byte for byte")
			.isEqualTo(body.getBytes(StandardCharsets.UTF_8));
		assertThat(auditLineOf(traced, traceId)).contains("\"decision\":\"allowed\"");
		assertNothingSecretIn(receiver.spansOf(traceId), "secret-argument-1");
	}

	@Test
	void traceContextOnlyInMetaIsTheSameTraceAndTheBodyKeepsEveryOtherByte() throws Exception {
		String traceId = traceId();
		String body = toolCall(2, "echo", "00-" + traceId + "-" + CLIENT_SPAN + "-01");

		post(traced, body);

		ExportedSpan server = span(traceId, "SPAN_KIND_SERVER");
		ExportedSpan client = span(traceId, "SPAN_KIND_CLIENT");
		assertThat(server.parentSpanId()).isEqualTo(CLIENT_SPAN);
		assertThat(client.parentSpanId()).isEqualTo(server.spanId());
		String upstreamParent = "00-" + traceId + "-" + client.spanId() + "-01";
		TestUpstream.Received received = lastReceived();
		assertThat(received.header("traceparent")).isEqualTo(upstreamParent);
		assertThat(received.bodyText()).isEqualTo(toolCall(2, "echo", upstreamParent));
		assertThat(received.body()).hasSameSizeAs(body.getBytes(StandardCharsets.UTF_8));
		assertThat(auditLineOf(traced, traceId)).contains("\"decision\":\"allowed\"");
		assertNothingSecretIn(receiver.spansOf(traceId), "secret-argument-2");
	}

	@Test
	void aRefusedCallHasAnErrorSpanWithItsCodeAndNoUpstreamSpan() throws Exception {
		String traceId = traceId();
		int before = upstream.count();

		HttpResponse<String> reply = post(traced, toolCall(3, "get-env", null), "traceparent",
				"00-" + traceId + "-" + CLIENT_SPAN + "-01");

		assertThat(reply.body()).contains("\"code\":\"tool_not_granted\"").contains("\"status\":403");
		ExportedSpan server = span(traceId, "SPAN_KIND_SERVER");
		assertThat(server.failed()).isTrue();
		assertThat(server.attributes()).containsEntry("error.type", "tool_not_granted");
		ExportedSpan policy = stages(traceId, server).get("gateway.policy");
		assertThat(policy.failed()).isTrue();
		assertThat(policy.attributes()).containsEntry("error.type", "tool_not_granted");
		assertThat(receiver.spansOf(traceId)).noneMatch((span) -> span.kind().equals("SPAN_KIND_CLIENT"));
		assertThat(upstream.count()).isEqualTo(before);
		assertThat(auditLineOf(traced, traceId)).contains("\"error_code\":\"tool_not_granted\"");
		assertNothingSecretIn(receiver.spansOf(traceId), "secret-argument-3");
	}

	@Test
	void aReplayIsItsOwnSpanWithOutcomeReplayAndNoUpstreamSpan() throws Exception {
		String first = traceId();
		String retry = traceId();
		String key = "jar-trace-key-" + UUID.randomUUID();
		post(traced, toolCall(4, "echo", null), "traceparent", "00-" + first + "-" + CLIENT_SPAN + "-01",
				"Idempotency-Key", key);
		int calls = upstream.count();

		HttpResponse<String> replay = post(traced, toolCall(4, "echo", null), "traceparent",
				"00-" + retry + "-" + CLIENT_SPAN + "-01", "Idempotency-Key", key);

		assertThat(replay.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(upstream.count()).isEqualTo(calls);
		ExportedSpan server = span(retry, "SPAN_KIND_SERVER");
		assertThat(server.attributes()).containsEntry("mcp_gateway.idempotency", "replay");
		assertThat(stages(retry, server).get("gateway.idempotency").attributes())
			.containsEntry("mcp_gateway.idempotency", "replay");
		assertThat(receiver.spansOf(retry)).noneMatch((span) -> span.kind().equals("SPAN_KIND_CLIENT"));
		assertThat(auditLineOf(traced, first)).contains("\"idempotency\":\"first\"");
		assertThat(auditLineOf(traced, retry)).contains("\"idempotency\":\"replay\"");
		assertThat(receiver.spans()).allSatisfy((span) -> assertThat(span.everything()).doesNotContain(key));
	}

	@Test
	void tracingOffRunsNoExporterThreadAndNamesNoTrace() throws Exception {
		HttpResponse<String> reply = post(untraced, toolCall(5, "echo", null), "traceparent",
				"00-" + traceId() + "-" + CLIENT_SPAN + "-01");
		assertThat(reply.statusCode()).isEqualTo(200);

		assertThat(threads(traced)).as("the check sees the exporter thread where there is one")
			.contains("BatchSpanProcessor");
		assertThat(threads(untraced)).doesNotContain("BatchSpanProcessor").doesNotContain("OkHttp");
		await().atMost(Duration.ofSeconds(5)).until(() -> !untraced.auditLines().isEmpty());
		assertThat(untraced.auditLines()).allSatisfy((line) -> assertThat(line).doesNotContain("trace_id"));
	}

	private static HttpResponse<String> post(GatewayProcess gateway, String body, String... headers)
			throws IOException, InterruptedException {
		String token = TestJwts.jwt().human("alice").team("blue").audience(gateway.url(GatewayProcess.GUARDED)).sign();
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.url(GatewayProcess.GUARDED)))
			.timeout(Duration.ofSeconds(20))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("Authorization", "Bearer " + token)
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (headers.length > 0) {
			request.headers(headers);
		}
		HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.body()).doesNotContain(token);
		return response;
	}

	private static String toolCall(int id, String tool, String metaTraceparent) {
		String meta = (metaTraceparent != null) ? "\"_meta\":{\"traceparent\":\"" + metaTraceparent + "\"}," : "";
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{" + meta + "\"name\":\""
				+ tool + "\",\"arguments\":{\"message\":\"secret-argument-" + id + "\"}}}";
	}

	private static String traceId() {
		return UUID.randomUUID().toString().replace("-", "");
	}

	private static TestUpstream.Received lastReceived() {
		List<TestUpstream.Received> received = upstream.received();
		return received.get(received.size() - 1);
	}

	private static ExportedSpan span(String traceId, String kind) {
		return receiver.awaitSpan(traceId, kind);
	}

	private static Map<String, ExportedSpan> stages(String traceId, ExportedSpan server) {
		return receiver.stageSpans(traceId, server, "gateway.policy");
	}

	private static String auditLineOf(GatewayProcess gateway, String traceId) {
		List<String> found = new ArrayList<>();
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			found.clear();
			gateway.auditLines()
				.stream()
				.filter((line) -> line.contains("\"trace_id\":\"" + traceId + "\""))
				.forEach(found::add);
			return !found.isEmpty();
		});
		return found.get(0);
	}

	private static void assertNothingSecretIn(List<ExportedSpan> spans, String argument) {
		assertThat(spans).isNotEmpty();
		assertThat(spans).allSatisfy((span) -> assertThat(span.everything()).doesNotContain(argument)
			.doesNotContain(RESULT_SECRET)
			.doesNotContain("Bearer")
			.doesNotContain("eyJ"));
	}

	/** The names of the gateway process's threads, from {@code jcmd Thread.print}. */
	private static String threads(GatewayProcess gateway) throws IOException, InterruptedException {
		Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
		Process process = new ProcessBuilder(jcmd.toString(), Long.toString(gateway.pid()), "Thread.print")
			.redirectErrorStream(true)
			.start();
		String dump = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		process.waitFor();
		assertThat(dump).contains("\"Reference Handler\"");
		return dump.lines().filter((line) -> line.startsWith("\"")).collect(Collectors.joining("\n"));
	}

}
