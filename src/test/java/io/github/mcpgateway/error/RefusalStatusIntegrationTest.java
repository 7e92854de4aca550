package io.github.mcpgateway.error;

import java.net.http.HttpResponse;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The alternatives to the default refusal statuses (ADR 0014): decisions with their own
 * HTTP status ({@code gateway.request.refusal-status: http}) and the Idempotency-Key's
 * refusals as JSON-RPC errors with 200 ({@code gateway.idempotency.refusal-status:
 * json-rpc}); and what no setting changes.
 */
@TestPropertySource(
		properties = { "gateway.request.refusal-status=http", "gateway.idempotency.refusal-status=json-rpc" })
class RefusalStatusIntegrationTest extends GatewayIntegrationTest {

	@Test
	void decisionsKeepTheirOwnStatusUnderHttp() {
		HttpResponse<String> refused = post("/mcp/test/echo", validToken(), toolCall(1, "admin_reset"));

		assertThat(refused.statusCode()).isEqualTo(403);
		assertThat(refused.body()).contains("\"code\":\"tool_not_granted\"").doesNotContain("\"status\"");
	}

	@Test
	void idempotencyRefusalsAreJsonRpcErrorsWithTheContractsStatusInData() {
		String key = UUID.randomUUID().toString();
		post("/mcp/test/echo", validToken(), toolCall(2, "echo"), "Idempotency-Key", key);

		HttpResponse<String> conflict = post("/mcp/test/echo", validToken(), toolCall(3, "echo"), "Idempotency-Key",
				key);

		assertThat(conflict.statusCode()).isEqualTo(200);
		assertThat(conflict.body()).contains("\"id\":3")
			.contains("\"code\":-32008")
			.contains("\"data\":{\"code\":\"idempotency_key_conflict\",\"status\":409}");
	}

	@Test
	void whatTheTransportActsOnKeepsItsStatusWhateverTheSettings() {
		assertThat(post("/mcp/test/echo", null, toolCall(4, "echo")).statusCode()).isEqualTo(401);
		assertThat(post("/mcp/test/echo", validToken(), toolCall(5, "echo"), "Mcp-Session-Id", "nope").statusCode())
			.isEqualTo(404);
		assertThat(post("/mcp/test/echo", validToken(), toolCall(6, "echo"), "Mcp-Method", "tools/list").statusCode())
			.isEqualTo(400);
	}

	@Test
	void refusedNotificationKeepsItsStatus() {
		HttpResponse<String> refused = post("/mcp/test/echo", TestJwts.jwt().human("mallory").team("red").sign(),
				"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

		assertThat(refused.statusCode()).isEqualTo(403);
		assertThat(refused.body()).contains("\"id\":null").contains("\"code\":\"server_not_granted\"");
	}

}
