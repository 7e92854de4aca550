package io.github.mcpgateway.proxy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.Replies;

import static org.assertj.core.api.Assertions.assertThat;

class ProxyMethodsIntegrationTest extends GatewayIntegrationTest {

	@Test
	void getStreamIsForwardedWithSessionResumptionAndVersionHeaders() {
		upstream.reply(Replies.sessions("get"));
		String token = validToken();
		String session = initialize("/mcp/test/echo", token);
		upstream.reset();
		upstream.reply(Replies.sse(List.of("id: 9\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\n\n"), 0));

		HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/mcp/test/echo?x=1"))
			.header("Authorization", "Bearer " + token)
			.header("Accept", "text/event-stream")
			.header("Mcp-Session-Id", session)
			.header("Last-Event-ID", "8")
			.header("MCP-Protocol-Version", "2025-06-18")
			.GET()
			.build());

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("id: 9\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\n\n");
		assertThat(upstream.received()).singleElement().satisfies((received) -> {
			assertThat(received.method()).isEqualTo("GET");
			assertThat(received.uri()).isEqualTo("/mcp?x=1");
			assertThat(received.header("Mcp-Session-Id")).isEqualTo(session);
			assertThat(received.header("Last-Event-ID")).isEqualTo("8");
			assertThat(received.header("MCP-Protocol-Version")).isEqualTo("2025-06-18");
			assertThat(received.header("Accept")).isEqualTo("text/event-stream");
			assertThat(received.header("Authorization")).isNull();
		});
	}

	/**
	 * The upstream gets its own Host, and the forwarding headers describe the gateway the
	 * client called, not the upstream.
	 */
	@Test
	void upstreamSeesItsOwnHostAndForwardingHeadersDescribeTheGateway() {
		upstream.reply(Replies.jsonResult("{}"));

		assertThat(post("/mcp/test/echo", validToken(), toolCall(1, "echo")).statusCode()).isEqualTo(200);

		assertThat(upstream.received()).singleElement().satisfies((received) -> {
			assertThat(received.uri()).isEqualTo("/mcp");
			assertThat(received.header("Host")).isEqualTo(java.net.URI.create(upstream.url("")).getAuthority());
			assertThat(received.header("X-Forwarded-Host")).isEqualTo("127.0.0.1:" + this.port);
			assertThat(received.header("X-Forwarded-Port")).isEqualTo(Integer.toString(this.port));
			assertThat(received.header("X-Forwarded-Proto")).isEqualTo("http");
			assertThat(received.header("X-Forwarded-Prefix")).isNull();
		});
	}

	@Test
	void deleteIsForwardedAndItsStatusPassesThrough() {
		upstream.reply(Replies.sessions("delete"));
		String token = validToken();
		String session = initialize("/mcp/test/echo", token);
		upstream.reset();
		upstream.reply(Replies.raw(405, null, ""));

		HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/mcp/test/echo"))
			.header("Authorization", "Bearer " + token)
			.header("Mcp-Session-Id", session)
			.DELETE()
			.build());

		assertThat(response.statusCode()).isEqualTo(405);
		assertThat(upstream.received()).singleElement()
			.satisfies((received) -> assertThat(received.method()).isEqualTo("DELETE"));
	}

	@Test
	void otherHttpMethodsAreRefusedAndNotForwarded() {
		HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/mcp/test/echo"))
			.header("Authorization", "Bearer " + validToken())
			.method("PUT", HttpRequest.BodyPublishers.ofString("{}"))
			.build());

		assertThat(response.statusCode()).isEqualTo(405);
		assertThat(response.body()).contains("\"code\":\"method_not_allowed\"");
		assertThat(upstream.count()).isZero();
	}

}
