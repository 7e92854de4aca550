package io.github.mcpgateway.identity;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * RFC 8707 audiences without a configured base URL: a server's canonical resource URI is
 * built from the request, and a token issued for it works on that server only.
 */
class ResourceAudienceIntegrationTest extends GatewayIntegrationTest {

	@Test
	void tokenIssuedForTheServersResourceIsAcceptedThere() {
		String token = TestJwts.jwt().audience(resource("/mcp/test/echo")).sign();

		HttpResponse<String> response = post("/mcp/test/echo", token, toolCall(1, "echo"));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void tokenIssuedForOneServerIsRefusedOnAnotherWithNothingSentUpstream() {
		String token = TestJwts.jwt().audience(resource("/mcp/test/flaky")).sign();

		HttpResponse<String> response = post("/mcp/test/echo", token, toolCall(1, "echo"));

		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.body()).contains("\"code\":\"invalid_token\"").contains("not issued for this resource");
		assertThat(response.headers().firstValue("WWW-Authenticate"))
			.hasValueSatisfying((challenge) -> assertThat(challenge).contains("error=\"invalid_token\"")
				.contains("not issued for this resource")
				.contains("resource_metadata=\"" + uri("/.well-known/oauth-protected-resource/mcp/test/echo") + "\""));
		assertThat(upstream.count()).isZero();
	}

	@Test
	void tokenForTheGatewayItselfIsNotATokenForItsServers() {
		String token = TestJwts.jwt().audience(resource("")).sign();

		assertThat(post("/mcp/test/echo", token, toolCall(1, "echo")).statusCode()).isEqualTo(401);
		assertThat(upstream.count()).isZero();
	}

	@Test
	void metadataResourceIsTheAudienceTheGatewayAccepts() {
		HttpResponse<String> metadata = send(
				java.net.http.HttpRequest.newBuilder(uri("/.well-known/oauth-protected-resource/mcp/test/echo"))
					.GET()
					.build());

		assertThat(metadata.body()).contains("\"resource\":\"" + resource("/mcp/test/echo") + "\"");
	}

	@Test
	void gatewayWideAudienceStillWorksOnEveryServer() {
		assertThat(post("/mcp/test/echo", validToken(), toolCall(1, "echo")).statusCode()).isEqualTo(200);
		assertThat(post("/mcp/test/flaky", validToken(), toolCall(1, "echo")).statusCode()).isEqualTo(200);
	}

	private String resource(String path) {
		return "http://127.0.0.1:" + this.port + path;
	}

}
