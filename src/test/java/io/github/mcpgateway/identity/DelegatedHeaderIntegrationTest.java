package io.github.mcpgateway.identity;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import io.github.mcpgateway.support.GatewayIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

class DelegatedHeaderIntegrationTest extends GatewayIntegrationTest {

	@Test
	void delegatedServerReceivesTheCallersAuthorizationUnverified() {
		HttpResponse<String> response = post("/mcp/test/delegated", "opaque-upstream-credential", toolCall(1, "echo"));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(upstream.received()).singleElement()
			.satisfies((received) -> assertThat(received.header("Authorization"))
				.isEqualTo("Bearer opaque-upstream-credential"));
	}

	@Test
	void delegatedServerStillEnforcesToolGrantsForAnyCaller() {
		HttpResponse<String> response = post("/mcp/test/delegated", null, toolCall(2, "admin_reset"));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"code\":\"tool_not_granted\"");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void oauthServerNeverReceivesTheCallersAuthorization() {
		String token = validToken();

		assertThat(post("/mcp/test/echo", token, toolCall(3, "echo")).statusCode()).isEqualTo(200);

		assertThat(upstream.received()).singleElement()
			.satisfies((received) -> assertThat(received.header("Authorization")).isNull());
	}

}
