package io.github.mcpgateway.request;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Messages the gateway and the upstream could act on differently, sent from outside
 * through the whole chain (issue 36): a request method without an id, a routing header
 * sent twice, a body in a charset other than UTF-8. Each is refused before anything
 * reaches the upstream, and no audit line calls it allowed; notifications and UTF-8
 * bodies still pass.
 */
@ExtendWith(OutputCaptureExtension.class)
class RequestAdmissionIntegrationTest extends GatewayIntegrationTest {

	private static final String GOVERNED = "/mcp/test/governed";

	/**
	 * Team blue: may call {@code echo}, get {@code greeting}, read
	 * {@code file:///docs/*}.
	 */
	private final String alice = TestJwts.jwt().human("alice").team("blue").sign();

	@BeforeEach
	void governedServer() {
		policy.write(policy.standard() + """
				  - namespace: test
				    name: governed
				    uid: uid-governed
				    upstream: %s
				    path: %s
				    grants:
				      - principal: { team: blue }
				        tools: [echo]
				        prompts: [greeting]
				        resources: ["file:///docs/*"]
				""".formatted(upstream.url("/governed"), GOVERNED));
		this.policyReloader.reloadNow();
	}

	@ParameterizedTest
	@ValueSource(strings = { "\"method\":\"tools/call\",\"params\":{\"name\":\"get-env\",\"arguments\":{}}",
			"\"method\":\"tasks/cancel\",\"params\":{\"taskId\":\"someone-elses-task\"}",
			"\"method\":\"prompts/get\",\"params\":{\"name\":\"leak_secrets\"}",
			"\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///etc/passwd\"}",
			"\"id\":null,\"method\":\"tools/call\",\"params\":{\"name\":\"get-env\",\"arguments\":{}}",
			"\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{}}", "\"method\":\"ping\"" })
	void requestMethodWithoutAnIdIsRefusedBeforeTheUpstreamAndNotAuditedAllowed(String members, CapturedOutput output) {
		HttpResponse<String> response = post(GOVERNED, this.alice, "{\"jsonrpc\":\"2.0\"," + members + "}");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).startsWith("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,")
			.contains("\"data\":{\"code\":\"request_id_missing\"}");
		assertThat(upstream.count()).isZero();
		await().atMost(Duration.ofSeconds(5)).until(() -> !auditLines(output).isEmpty());
		assertThat(auditLines(output)).singleElement()
			.satisfies((line) -> assertThat(line).contains("\"decision\":\"invalid\"")
				.contains("\"error_code\":\"request_id_missing\"")
				.contains("\"dispatched\":false"));
	}

	@Test
	void keyedToolCallWithoutAnIdIsAnUnsupportedRequestOfTheContract() {
		HttpResponse<String> response = post(GOVERNED, this.alice,
				"{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{}}}",
				"Idempotency-Key", "no-id-1");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("\"data\":{\"code\":\"idempotency_unsupported_request\"}");
		assertThat(upstream.count()).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
			"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":3}}",
			"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}" })
	void notificationWithoutAnIdIsStillForwarded(String notification) {
		upstream.reply(Replies.raw(202, null, ""));

		HttpResponse<String> response = post(GOVERNED, this.alice, notification);

		assertThat(response.statusCode()).isEqualTo(202);
		assertThat(upstream.received()).singleElement()
			.satisfies((received) -> assertThat(received.bodyText()).isEqualTo(notification));
	}

	@ParameterizedTest(name = "{0}: {1} then {2}")
	@CsvSource(delimiter = '|', value = { "Mcp-Name|echo|get-env|header_mismatch", "mcp-name|echo|echo|header_mismatch",
			"Mcp-Method|tools/call|tools/list|header_mismatch",
			"MCP-Protocol-Version|2025-06-18|2026-07-28|header_mismatch", "Mcp-Param-Region|eu|us|header_mismatch",
			"Content-Type|application/json|application/json; charset=utf-16le|unsupported_media_type",
			"Idempotency-Key|key-1|key-2|idempotency_key_invalid" })
	void repeatedRoutingHeaderIsRefusedBeforeTheUpstream(String name, String first, String second, String code) {
		HttpResponse<String> response = post(GOVERNED, this.alice, toolCall(1, "echo"), name, first, name, second);

		assertThat(response.statusCode()).isEqualTo(code.equals("unsupported_media_type") ? 415 : 400);
		assertThat(response.body()).contains("\"data\":{\"code\":\"" + code + "\"}");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void repeatedSessionIdIsRefusedBeforeTheUpstream() {
		upstream.reply(Replies.sessions("twice"));
		String session = initialize(GOVERNED, this.alice);
		upstream.reset();

		HttpResponse<String> response = post(GOVERNED, this.alice, toolCall(2, "echo"), "Mcp-Session-Id", session,
				"Mcp-Session-Id", "another-session");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("\"data\":{\"code\":\"header_invalid\"}");
		assertThat(upstream.count()).isZero();
		assertThat(post(GOVERNED, this.alice, toolCall(3, "echo"), "Mcp-Session-Id", session).statusCode())
			.isEqualTo(200);
		assertThat(upstream.count()).isOne();
	}

	@ParameterizedTest
	@ValueSource(strings = { "application/json; charset=iso-8859-1", "application/json; charset=utf-16le",
			"application/json;charset=\"UTF-16\"", "application/json; charset=latin1" })
	void bodyInACharsetOtherThanUtf8IsRefusedBeforeTheUpstream(String contentType) {
		HttpResponse<String> response = send(GOVERNED, contentType, toolCall(4, "echo"));

		assertThat(response.statusCode()).isEqualTo(415);
		assertThat(response.body()).contains("\"data\":{\"code\":\"unsupported_media_type\"}");
		assertThat(upstream.count()).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "application/json", "application/json; charset=utf-8", "application/json;charset=UTF-8",
			"application/json; charset=\"utf-8\"", "Application/JSON; Charset=Utf-8" })
	void bodyInUtf8IsForwarded(String contentType) {
		HttpResponse<String> response = send(GOVERNED, contentType, toolCall(5, "echo"));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(upstream.received()).singleElement()
			.satisfies((received) -> assertThat(received.header("Content-Type")).isEqualTo(contentType));
	}

	private HttpResponse<String> send(String path, String contentType, String json) {
		return send(HttpRequest.newBuilder(uri(path))
			.timeout(Duration.ofSeconds(20))
			.header("Content-Type", contentType)
			.header("Accept", "application/json, text/event-stream")
			.header("Authorization", "Bearer " + this.alice)
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build());
	}

	private static List<String> auditLines(CapturedOutput output) {
		return output.getOut().lines().filter((line) -> line.contains("mcp.audit")).toList();
	}

}
