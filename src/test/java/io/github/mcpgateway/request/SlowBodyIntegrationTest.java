package io.github.mcpgateway.request;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.SlowClient;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 36, finding 2, from outside: clients that dribble a body one byte at a time, with
 * a valid token and with an invalid one, against a gateway of four request threads. Each
 * is answered within the body-read deadline (or at once, before identity) and its
 * connection closed, and another caller's call goes through while they keep sending.
 */
@TestPropertySource(properties = { "gateway.request.body-read-timeout=1s", "server.tomcat.threads.max=4" })
class SlowBodyIntegrationTest extends GatewayIntegrationTest {

	private static final String ECHO = "/mcp/test/echo";

	private static final Duration BYTE_EVERY = Duration.ofMillis(200);

	private static final Duration SEND_FOR = Duration.ofSeconds(15);

	@Test
	void bodyDribbledPastTheReadTimeoutIsRefusedAndItsConnectionClosed() {
		try (SlowClient client = SlowClient.start(this.port, ECHO, "Bearer " + mallory(), 100_000, BYTE_EVERY,
				SEND_FOR)) {
			SlowClient.Answer answer = client.answer(Duration.ofSeconds(8));

			assertThat(answer.closed()).as(answer.response()).isTrue();
			assertThat(answer.after()).isLessThan(Duration.ofSeconds(5));
			assertThat(answer.status()).isEqualTo(408);
			assertThat(answer.response()).contains("\"code\":\"request_body_timeout\"");
		}
		assertThat(upstream.count()).isZero();
	}

	@Test
	void refusalBeforeIdentityClosesTheConnectionInsteadOfSwallowingTheBody() {
		try (SlowClient client = SlowClient.start(this.port, ECHO, "Bearer not-a-token", 100_000, BYTE_EVERY,
				SEND_FOR)) {
			SlowClient.Answer answer = client.answer(Duration.ofSeconds(8));

			assertThat(answer.status()).as(answer.response()).isEqualTo(401);
			assertThat(answer.response()).containsIgnoringCase("\r\nConnection: close\r\n");
			assertThat(answer.closed()).as("connection closed after the 401").isTrue();
			assertThat(answer.after()).isLessThan(Duration.ofSeconds(3));
		}
	}

	@Test
	void slowBodiesWithAValidTokenDoNotKeepAnotherCallerOut() {
		assertAnotherCallerGetsThroughWhileTwiceTheThreadsDribble("Bearer " + mallory());
	}

	@Test
	void slowBodiesWithAnInvalidTokenDoNotKeepAnotherCallerOut() {
		assertAnotherCallerGetsThroughWhileTwiceTheThreadsDribble("Bearer not-a-token");
	}

	private void assertAnotherCallerGetsThroughWhileTwiceTheThreadsDribble(String authorization) {
		List<SlowClient> attackers = new ArrayList<>();
		try {
			for (int i = 0; i < 8; i++) {
				attackers.add(SlowClient.start(this.port, ECHO, authorization, 100_000, BYTE_EVERY, SEND_FOR));
			}
			sleep(Duration.ofMillis(300));
			long start = System.nanoTime();
			HttpResponse<String> response = send(HttpRequest.newBuilder(uri(ECHO))
				.timeout(Duration.ofSeconds(8))
				.header("Content-Type", "application/json")
				.header("Accept", "application/json, text/event-stream")
				.header("Authorization", "Bearer " + TestJwts.jwt().human("carol").sign())
				.POST(HttpRequest.BodyPublishers.ofString(toolCall(1, "echo")))
				.build());

			assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(6));
			assertThat(upstream.count()).isEqualTo(1);
		}
		finally {
			attackers.forEach(SlowClient::close);
		}
	}

	private static String mallory() {
		return TestJwts.jwt().human("mallory").team("blue").sign();
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
