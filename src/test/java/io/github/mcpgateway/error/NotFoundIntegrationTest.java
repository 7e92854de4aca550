package io.github.mcpgateway.error;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.mcpgateway.support.GatewayIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Near misses of a server path get the gateway's own 404 problem details, never Spring's
 * static-resource text, and nothing goes upstream.
 */
class NotFoundIntegrationTest extends GatewayIntegrationTest {

	@ParameterizedTest
	@ValueSource(strings = { "/mcp/test/echo/", "/mcp/test/echo/extra", "/mcp/test", "/nothing/here" })
	void postToAPathNoServerIsOnIsTheGatewaysNotFound(String path) {
		HttpResponse<String> response = post(path, validToken(), toolCall(1, "echo"));

		assertNotFound(response);
		assertThat(upstream.count()).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "/mcp/test/echo/", "/favicon.ico", "/index.html" })
	void getToAPathNoServerIsOnIsTheGatewaysNotFound(String path) {
		HttpResponse<String> response = send(HttpRequest.newBuilder(uri(path))
			.header("Authorization", "Bearer " + validToken())
			.header("Accept", "text/event-stream")
			.GET()
			.build());

		assertNotFound(response);
	}

	private static void assertNotFound(HttpResponse<String> response) {
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(response.body()).contains("\"code\":\"not_found\"")
			.contains("No MCP server or endpoint at this path")
			.doesNotContainIgnoringCase("static resource")
			.doesNotContainIgnoringCase("spring")
			.doesNotContain("Exception");
	}

}
