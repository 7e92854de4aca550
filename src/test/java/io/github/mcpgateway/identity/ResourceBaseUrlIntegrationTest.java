package io.github.mcpgateway.identity;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Behind an ingress: with {@code resource-base-url} set (and no gateway-wide audience),
 * the metadata, the 401 challenge and the accepted audience all use the public URL, and a
 * token issued for the internal URL is refused.
 */
@TestPropertySource(properties = { "gateway.identity.resource-base-url=HTTPS://MCP.Example.com/",
		"gateway.identity.oauth.audiences=" })
class ResourceBaseUrlIntegrationTest extends GatewayIntegrationTest {

	private static final String PUBLIC_RESOURCE = "https://mcp.example.com/mcp/test/echo";

	@Test
	void metadataNamesThePublicResource() {
		HttpResponse<String> metadata = send(
				HttpRequest.newBuilder(uri("/.well-known/oauth-protected-resource/mcp/test/echo")).GET().build());
		HttpResponse<String> root = send(
				HttpRequest.newBuilder(uri("/.well-known/oauth-protected-resource")).GET().build());

		assertThat(metadata.body()).contains("\"resource\":\"" + PUBLIC_RESOURCE + "\"");
		assertThat(root.body()).contains("\"resource\":\"https://mcp.example.com\"");
	}

	@Test
	void challengePointsAtThePublicMetadata() {
		HttpResponse<String> response = post("/mcp/test/echo", null, toolCall(1, "echo"));

		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue(
				"Bearer resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp/test/echo\"");
	}

	@Test
	void tokenForThePublicResourceIsAccepted() {
		String token = TestJwts.jwt().audience(PUBLIC_RESOURCE).sign();

		assertThat(post("/mcp/test/echo", token, toolCall(1, "echo")).statusCode()).isEqualTo(200);
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void tokenForTheInternalUrlOrAnotherAudienceIsRefused() {
		String internal = TestJwts.jwt().audience("http://127.0.0.1:" + this.port + "/mcp/test/echo").sign();

		assertThat(post("/mcp/test/echo", internal, toolCall(1, "echo")).statusCode()).isEqualTo(401);
		assertThat(post("/mcp/test/echo", validToken(), toolCall(1, "echo")).statusCode()).isEqualTo(401);
		assertThat(upstream.count()).isZero();
	}

}
