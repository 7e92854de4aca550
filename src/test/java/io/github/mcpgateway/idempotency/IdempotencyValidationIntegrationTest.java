package io.github.mcpgateway.idempotency;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.mcpgateway.support.RawHttp;
import io.github.mcpgateway.support.Replies;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Opt-in, applicability and validation: each refusal stores nothing and sends nothing
 * upstream.
 */
class IdempotencyValidationIntegrationTest extends IdempotencyIntegrationTest {

	@Test
	void withoutTheHeaderNothingChanges() {
		var before = this.store.stats();

		HttpResponse<String> first = post("/mcp/test/echo", this.token, toolCall(1, "echo"));
		HttpResponse<String> second = post("/mcp/test/echo", this.token, toolCall(1, "echo"));

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(second.statusCode()).isEqualTo(200);
		assertThat(first.headers().map()).doesNotContainKey("idempotency-replayed");
		assertThat(second.headers().map()).doesNotContainKey("idempotency-replayed");
		assertThat(upstream.count()).isEqualTo(2);
		assertThat(this.store.stats()).isEqualTo(before);
	}

	@Test
	void keyOnOtherJsonRpcMethodsIsUnsupported() {
		for (String body : new String[] { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}",
				"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}" }) {
			assertGatewayError(keyed("/mcp/test/echo", this.token, body, uniqueKey()), 400,
					"idempotency_unsupported_request");
		}
		assertThat(upstream.count()).isZero();
	}

	@Test
	void keyOnBatchOrNonJsonBodyIsUnsupported() {
		assertGatewayError(keyed("/mcp/test/echo", this.token, "[" + toolCall(1, "echo") + "]", uniqueKey()), 400,
				"idempotency_unsupported_request");
		assertGatewayError(keyed("/mcp/test/echo", this.token, "{not json", uniqueKey()), 400,
				"idempotency_unsupported_request");
		HttpResponse<String> text = send(HttpRequest.newBuilder(uri("/mcp/test/echo"))
			.header("Authorization", "Bearer " + this.token)
			.header("Content-Type", "text/plain")
			.header("Idempotency-Key", uniqueKey())
			.POST(HttpRequest.BodyPublishers.ofString(toolCall(1, "echo"))));
		assertGatewayError(text, 400, "idempotency_unsupported_request");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void keyOnGetOrDeleteIsUnsupported() {
		for (String method : new String[] { "GET", "DELETE" }) {
			HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/mcp/test/echo"))
				.header("Authorization", "Bearer " + this.token)
				.header("Idempotency-Key", uniqueKey())
				.method(method, HttpRequest.BodyPublishers.noBody()));
			assertGatewayError(response, 400, "idempotency_unsupported_request");
		}
		assertThat(upstream.count()).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "with space", "tab\there" })
	void invalidKeyIsRejected(String key) {
		HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/mcp/test/echo"))
			.header("Authorization", "Bearer " + this.token)
			.header("Content-Type", "application/json")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString(toolCall(3, "echo"))));

		assertGatewayError(response, 400, "idempotency_key_invalid");
		assertThat(response.body()).contains("\"id\":3");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void nonAsciiKeyIsRejected() {
		byte[] request = RawHttp.post("/mcp/test/echo", toolCall(3, "echo"), "Authorization: Bearer " + this.token,
				"Idempotency-Key: caf\u00e9");

		String response = RawHttp.exchange(this.port, request);

		assertThat(response).startsWith("HTTP/1.1 400").contains("\"code\":\"idempotency_key_invalid\"");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void keyWithControlCharacterIsRefusedByTheHttpServerBeforeAnythingElse() {
		byte[] request = RawHttp.post("/mcp/test/echo", toolCall(3, "echo"), "Authorization: Bearer " + this.token,
				"Idempotency-Key: a\u0001b");

		assertThat(RawHttp.exchange(this.port, request)).startsWith("HTTP/1.1 400");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void keyOverTwoHundredFiftyFiveCharactersIsRejectedAndTwoHundredFiftyFiveIsAccepted() {
		assertGatewayError(keyed("/mcp/test/echo", this.token, toolCall(1, "echo"), "k".repeat(256)), 400,
				"idempotency_key_invalid");
		assertThat(
				keyed("/mcp/test/echo", this.token, toolCall(1, "echo"), uniqueKey().substring(0, 10) + "k".repeat(245))
					.statusCode())
			.isEqualTo(200);
	}

	@Test
	void keyGivenTwiceIsRejected() {
		String key = uniqueKey();
		HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/mcp/test/echo"))
			.header("Authorization", "Bearer " + this.token)
			.header("Content-Type", "application/json")
			.header("Idempotency-Key", key)
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString(toolCall(1, "echo"))));

		assertGatewayError(response, 400, "idempotency_key_invalid");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void delegatedHeaderServerRequiresVerifiedIdentity() {
		assertGatewayError(keyed("/mcp/test/delegated", "whatever", toolCall(1, "echo"), uniqueKey()), 400,
				"idempotency_requires_verified_identity");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void serverWithoutUidIsUnavailable() {
		assertGatewayError(keyed("/mcp/test/down", this.token, toolCall(1, "echo"), uniqueKey()), 503,
				"idempotency_unavailable");
	}

	@Test
	void refusalsByEarlierStagesComeFirst() {
		upstream.reply(Replies.jsonResult("{}"));

		assertThat(keyed("/mcp/test/echo", null, toolCall(1, "echo"), "").statusCode()).isEqualTo(401);
		assertThat(keyed("/mcp/test/echo", this.token, toolCall(1, "admin_reset"), "").body())
			.contains("\"code\":\"tool_not_granted\"");
		assertThat(keyed("/mcp/test/echo", this.token, toolCall(1, "echo"), uniqueKey(), "Mcp-Session-Id", "nope")
			.statusCode()).isEqualTo(404);
		assertThat(upstream.count()).isZero();
	}

}
