package io.github.mcpgateway.revocation;

import java.net.http.HttpResponse;
import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Revocations through the real 500 ms poll of a revocation file. */
class RevocationIntegrationTest extends GatewayIntegrationTest {

	private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{}}";

	@Autowired
	MeterRegistry meterRegistry;

	private final String alice = TestJwts.jwt().human("alice").sign();

	@BeforeEach
	void upstreamWithSessions() {
		upstream.reply(Replies.sessions("r"));
	}

	@Test
	void revokedSessionIsRefusedWithinOneSecond() {
		String session = initialize("/mcp/test/echo", this.alice);
		assertThat(call(session).statusCode()).isEqualTo(200);

		revocations.write("{\"sessions\":[\"" + session + "\"]}");

		long start = System.nanoTime();
		await().atMost(Duration.ofSeconds(1))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> call(session).statusCode() == 404);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
		assertThat(call(session).body()).contains("\"code\":\"session_not_found\"");
	}

	@Test
	void revokedPrincipalIsForbiddenOnToolCallsAndInitializeUntilTheRevocationIsRemoved() {
		String session = initialize("/mcp/test/echo", this.alice);

		revocations.write("{\"principals\":[{\"human\":\"alice\"}]}");
		await().atMost(Duration.ofSeconds(1)).until(() -> call(session).body().contains("principal_revoked"));
		int sent = upstream.count();

		assertThat(call(session).body()).contains("\"code\":\"principal_revoked\"");
		HttpResponse<String> reinitialize = post("/mcp/test/echo", this.alice, INITIALIZE);
		assertThat(reinitialize.body()).contains("\"code\":\"principal_revoked\"");
		assertThat(post("/mcp/test/echo", TestJwts.jwt().human("bob").sign(), toolCall(1, "echo")).statusCode())
			.isEqualTo(200);
		assertThat(upstream.count()).isEqualTo(sent + 1);

		revocations.clear();
		await().atMost(Duration.ofSeconds(1)).until(() -> call(session).statusCode() == 200);
	}

	@Test
	void brokenSourceKeepsRevocationsInForceAndTheAgeGrows() {
		String session = initialize("/mcp/test/echo", this.alice);
		revocations.write("{\"sessions\":[\"" + session + "\"]}");
		await().atMost(Duration.ofSeconds(1)).until(() -> call(session).statusCode() == 404);

		revocations.write("{\"sessions\": [\"" + session);

		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			assertThat(this.meterRegistry.get("mcp.gateway.revocation.syncs").tag("result", "failed").counter().count())
				.isPositive();
			assertThat(this.meterRegistry.get("mcp.gateway.revocation.sync.age").gauge().value()).isGreaterThan(1.0);
		});
		assertThat(call(session).statusCode()).isEqualTo(404);
		assertThat(send(java.net.http.HttpRequest.newBuilder(uri("/actuator/health")).build()).body())
			.contains("\"lastSync\":\"failed\"");
	}

	private HttpResponse<String> call(String session) {
		return post("/mcp/test/echo", this.alice, toolCall(1, "echo"), "Mcp-Session-Id", session);
	}

}
