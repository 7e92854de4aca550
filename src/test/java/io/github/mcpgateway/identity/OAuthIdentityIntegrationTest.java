package io.github.mcpgateway.identity;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

class OAuthIdentityIntegrationTest extends GatewayIntegrationTest {

	static Stream<Arguments> rejectedTokens() {
		return Stream.of(Arguments.of("expired", TestJwts.jwt().expiredSince(Duration.ofMinutes(5)).sign()),
				Arguments.of("not yet valid", TestJwts.jwt().notBefore(Instant.now().plusSeconds(600)).sign()),
				Arguments.of("bad signature", TestJwts.jwt().signedWithUnpublishedKey().sign()),
				Arguments.of("unknown kid", TestJwts.jwt().unknownKeyId().sign()),
				Arguments.of("alg none", TestJwts.jwt().unsigned()),
				Arguments.of("wrong issuer", TestJwts.jwt().issuer("https://evil.test").sign()),
				Arguments.of("wrong audience", TestJwts.jwt().audience("another-api").sign()),
				Arguments.of("not a JWT", "garbage"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("rejectedTokens")
	void toolCallWhenTokenRejectedThenUnauthorizedWithResourceMetadataAndNothingSentUpstream(String reason,
			String token) {
		HttpResponse<String> response = post("/mcp/test/echo", token, toolCall(7, "echo"));

		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().firstValue("WWW-Authenticate"))
			.hasValueSatisfying((challenge) -> assertThat(challenge).startsWith("Bearer ")
				.contains("error=\"invalid_token\"")
				.contains("resource_metadata=\"" + uri("/.well-known/oauth-protected-resource/mcp/test/echo") + "\""));
		assertThat(response.body()).contains("\"code\":\"invalid_token\"").contains("\"jsonrpc\":\"2.0\"");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void toolCallWithoutTokenThenUnauthorizedWithChallengeWithoutErrorCode() {
		HttpResponse<String> response = post("/mcp/test/echo", null, toolCall(7, "echo"));

		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue(
				"Bearer resource_metadata=\"" + uri("/.well-known/oauth-protected-resource/mcp/test/echo") + "\"");
		assertThat(response.body()).contains("\"code\":\"unauthenticated\"");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void tokenInQueryParameterIsNotAccepted() {
		HttpResponse<String> response = post("/mcp/test/echo?access_token=" + validToken(), null, toolCall(7, "echo"));

		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(upstream.count()).isZero();
	}

	@Test
	void tokenWithoutSubjectIsRejected() {
		String token = TestJwts.jwt().claim("sub", "").sign();

		assertThat(post("/mcp/test/echo", token, toolCall(7, "echo")).statusCode()).isEqualTo(401);
		assertThat(upstream.count()).isZero();
	}

	@Test
	void protectedResourceMetadataNamesTheServerAndTheIssuer() {
		HttpResponse<String> response = send(
				java.net.http.HttpRequest.newBuilder(uri("/.well-known/oauth-protected-resource/mcp/test/echo"))
					.build());

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"resource\":\"" + uri("/mcp/test/echo") + "\"")
			.contains("\"authorization_servers\":[\"https://issuer.test\"]")
			.contains("\"bearer_methods_supported\":[\"header\"]");
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "no token", "rejected token" })
	void unauthenticatedCallerCannotTellAnOauthServersPathFromAPathNoServerIsOn(String kind) {
		String token = kind.equals("no token") ? null : TestJwts.jwt().audience("another-api").sign();

		String server = seen("/mcp/test/echo", post("/mcp/test/echo", token, toolCall(7, "echo")));
		String none = seen("/mcp/test/nothing", post("/mcp/test/nothing", token, toolCall(7, "echo")));
		String serverMetadata = seen("/mcp/test/echo", metadata("/mcp/test/echo"));
		String noneMetadata = seen("/mcp/test/nothing", metadata("/mcp/test/nothing"));

		assertThat(server).startsWith("401 ").contains("resource_metadata=");
		assertThat(none).isEqualTo(server);
		assertThat(serverMetadata).startsWith("200 ").containsPattern("\"resource\":\"http://[^\"]+\\{path\\}\"");
		assertThat(noneMetadata).isEqualTo(serverMetadata);
		assertThat(upstream.count()).isZero();
	}

	@Test
	void protectedResourceMetadataOfAPathNoPolicyCouldServeIsNotFound() {
		assertThat(metadata("/mcp/test/echo/").statusCode()).isEqualTo(404);
		assertThat(metadata("/mcp/test/a%20b").statusCode()).isEqualTo(404);
		assertThat(metadata("/actuator/health").statusCode()).isEqualTo(404);
	}

	private HttpResponse<String> metadata(String path) {
		return send(java.net.http.HttpRequest.newBuilder(uri("/.well-known/oauth-protected-resource" + path)).build());
	}

	/**
	 * Status, headers but the date, and body, with {@code path} written {@code {path}}.
	 */
	private static String seen(String path, HttpResponse<String> response) {
		java.util.Map<String, java.util.List<String>> headers = new java.util.TreeMap<>(response.headers().map());
		headers.remove("date");
		return (response.statusCode() + " " + headers + " " + response.body()).replace(path, "{path}");
	}

	@Test
	void validTokenReachesUpstreamAndTheCallersTokenIsNotForwarded() {
		String token = validToken();

		HttpResponse<String> response = post("/mcp/test/echo", token, toolCall(7, "echo"));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(upstream.received()).singleElement().satisfies((received) -> {
			assertThat(received.header("Authorization")).isNull();
			assertThat(received.headers().values().toString()).doesNotContain(token);
		});
	}

}
