package io.github.mcpgateway.session;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@ExtendWith(OutputCaptureExtension.class)
class SessionBindingIntegrationTest extends GatewayIntegrationTest {

	private final String alice = TestJwts.jwt().human("alice").sign();

	private final String bob = TestJwts.jwt().human("bob").sign();

	@BeforeEach
	void upstreamWithSessions() {
		upstream.reply(Replies.sessions("s"));
	}

	@Test
	void sessionOfAnotherPrincipalIsUnknownAndNothingIsSentWhileTheOwnerGoesOn(CapturedOutput output) {
		String session = initialize("/mcp/test/echo", this.alice);
		int sent = upstream.count();

		HttpResponse<String> stolen = post("/mcp/test/echo", this.bob, toolCall(1, "echo"), "Mcp-Session-Id", session);

		assertThat(stolen.statusCode()).isEqualTo(404);
		assertThat(stolen.body()).contains("\"id\":1").contains("\"code\":\"session_not_found\"");
		assertThat(upstream.count()).isEqualTo(sent);
		assertThat(post("/mcp/test/echo", this.alice, toolCall(2, "echo"), "Mcp-Session-Id", session).statusCode())
			.isEqualTo(200);
		await().atMost(Duration.ofSeconds(5))
			.until(() -> output.getOut()
				.contains("\"error_code\":\"session_not_found\",\"reason\":\"rejected_principal\""));
		assertThat(output.getOut()).contains("\"session_event\":\"bound\",\"session_id\":\"" + session + "\"");
	}

	@Test
	void sessionUsedOnAnotherServerIsUnknown() {
		String session = initialize("/mcp/test/echo", this.alice);

		HttpResponse<String> response = post("/mcp/test/flaky", this.alice, toolCall(1, "echo"), "Mcp-Session-Id",
				session);

		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.body()).contains("\"code\":\"session_not_found\"");
	}

	@Test
	void sessionTheGatewayNeverSawIsUnknown() {
		HttpResponse<String> response = post("/mcp/test/echo", this.alice, toolCall(1, "echo"), "Mcp-Session-Id",
				"made-up");

		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(upstream.count()).isZero();
	}

	@Test
	void deleteEndsTheBindingOnceTheUpstreamAccepted() {
		String session = initialize("/mcp/test/echo", this.alice);
		upstream.reply(Replies.raw(200, null, ""));

		HttpResponse<String> deleted = send(HttpRequest.newBuilder(uri("/mcp/test/echo"))
			.header("Authorization", "Bearer " + this.alice)
			.header("Mcp-Session-Id", session)
			.DELETE()
			.build());

		assertThat(deleted.statusCode()).isEqualTo(200);
		assertThat(post("/mcp/test/echo", this.alice, toolCall(1, "echo"), "Mcp-Session-Id", session).statusCode())
			.isEqualTo(404);
	}

	@Test
	void upstreamThatForgotTheSessionDropsTheBinding() {
		String session = initialize("/mcp/test/echo", this.alice);
		upstream.reply(Replies.raw(404, "application/json", "{}"));

		assertThat(post("/mcp/test/echo", this.alice, toolCall(1, "echo"), "Mcp-Session-Id", session).statusCode())
			.isEqualTo(404);
		upstream.reply(Replies.jsonResult("{}"));
		int sent = upstream.count();

		assertThat(post("/mcp/test/echo", this.alice, toolCall(2, "echo"), "Mcp-Session-Id", session).statusCode())
			.isEqualTo(404);
		assertThat(upstream.count()).isEqualTo(sent);
	}

	@Test
	void requestsWithoutSessionPass() {
		assertThat(post("/mcp/test/echo", this.alice, toolCall(1, "echo")).statusCode()).isEqualTo(200);
	}

}
