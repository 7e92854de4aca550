package io.github.mcpgateway.idempotency;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.springframework.beans.factory.annotation.Autowired;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/** Helpers for the Idempotency-Key integration tests. */
abstract class IdempotencyIntegrationTest extends GatewayIntegrationTest {

	@Autowired
	IdempotencyStore store;

	/**
	 * A principal of its own for each test: the store outlives a test, and tombstones
	 * count against their scope's budget for five minutes.
	 */
	final String token = TestJwts.jwt().human("alice-" + uniqueKey()).sign();

	HttpResponse<String> keyed(String path, String token, String body, String key, String... headers) {
		String[] all = new String[headers.length + 2];
		all[0] = "Idempotency-Key";
		all[1] = key;
		System.arraycopy(headers, 0, all, 2, headers.length);
		return post(path, token, body, all);
	}

	HttpResponse<String> keyedCall(String key) {
		return keyed("/mcp/test/echo", this.token, toolCall(1, "echo"), key);
	}

	static void assertGatewayError(HttpResponse<String> response, int status, String code) {
		assertThat(response.statusCode()).isEqualTo(status);
		assertThat(response.body()).contains("\"data\":{\"code\":\"" + code + "\"}");
		assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
	}

	static String uniqueKey() {
		return java.util.UUID.randomUUID().toString();
	}

	HttpResponse<String> send(HttpRequest.Builder request) {
		return send(request.build());
	}

}
