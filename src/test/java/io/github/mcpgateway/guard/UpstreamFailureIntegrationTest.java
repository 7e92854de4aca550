package io.github.mcpgateway.guard;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.Replies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class UpstreamFailureIntegrationTest extends GatewayIntegrationTest {

	@Test
	void unreachableUpstreamIsBadGateway() {
		HttpResponse<String> response = post("/mcp/test/down", validToken(), toolCall(11, "echo"));

		assertThat(response.statusCode()).isEqualTo(502);
		assertThat(response.body()).contains("\"id\":11").contains("\"code\":\"upstream_unavailable\"");
	}

	@Test
	void silentUpstreamIsGatewayTimeoutAfterTheFirstByteTimeout() {
		upstream.reply(Replies.silentFor(3000, Replies.jsonResult("{}")));

		long start = System.nanoTime();
		HttpResponse<String> response = post("/mcp/test/slow", validToken(), toolCall(12, "echo"));
		Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

		assertThat(response.statusCode()).isEqualTo(504);
		assertThat(response.body()).contains("\"id\":12").contains("\"code\":\"upstream_timeout\"");
		assertThat(elapsed).isGreaterThanOrEqualTo(Duration.ofMillis(950)).isLessThan(Duration.ofMillis(2900));
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void upstreamServerErrorPassesThroughAndOpensTheCircuitThenNothingIsSent() {
		upstream.reply(Replies.raw(500, "application/json", "{\"upstream\":\"broken\"}"));
		for (int i = 0; i < 4; i++) {
			HttpResponse<String> response = post("/mcp/test/flaky", validToken(), toolCall(i, "echo"));
			assertThat(response.statusCode()).isEqualTo(500);
			assertThat(response.body()).isEqualTo("{\"upstream\":\"broken\"}");
		}

		HttpResponse<String> refused = post("/mcp/test/flaky", validToken(), toolCall(5, "echo"));

		assertThat(refused.statusCode()).isEqualTo(503);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("30");
		assertThat(refused.body()).contains("\"id\":5").contains("\"code\":\"upstream_circuit_open\"");
		assertThat(upstream.count()).isEqualTo(4);
	}

	@Test
	void fullBulkheadRefusesAtOnceWithRetryAfterAndNothingIsSent() {
		upstream.reply(Replies.silentFor(700, Replies.jsonResult("{}")));
		List<CompletableFuture<Integer>> inFlight = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			int id = i;
			inFlight.add(CompletableFuture
				.supplyAsync(() -> post("/mcp/test/echo", validToken(), toolCall(id, "echo")).statusCode()));
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> upstream.count() == 4);

		HttpResponse<String> refused = post("/mcp/test/echo", validToken(), toolCall(99, "echo"));

		assertThat(refused.statusCode()).isEqualTo(503);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
		assertThat(refused.body()).contains("\"id\":99").contains("\"code\":\"upstream_overloaded\"");
		assertThat(inFlight).allSatisfy((call) -> assertThat(call.join()).isEqualTo(200));
		assertThat(upstream.count()).isEqualTo(4);
	}

}
