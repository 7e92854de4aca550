package io.github.mcpgateway.idempotency;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestUpstream.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The extensions of ADR 0008 ({@code event-streams: replay},
 * {@code request-hash: without-jsonrpc-id}) and the cancellation of a keyed call, through
 * the real chain.
 */
@TestPropertySource(properties = { "gateway.idempotency.event-streams=replay",
		"gateway.idempotency.request-hash=without-jsonrpc-id" })
class IdempotencyExtensionsIntegrationTest extends IdempotencyIntegrationTest {

	private static final String RESPONSE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\","
			+ "\"text\":\"done\"}]}}";

	@Test
	void aJavaSdkServersEventStreamIsReplayedAndTheToolRunsOnce() {
		String session = post("/mcp/test/sdk-stream", this.token,
				"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
						+ "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}")
			.headers()
			.firstValue("Mcp-Session-Id")
			.orElseThrow();
		post("/mcp/test/sdk-stream", this.token, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
				"Mcp-Session-Id", session);
		String key = uniqueKey();
		String call = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"notes_create\","
				+ "\"arguments\":{\"text\":\"" + key + "\"}}}";

		HttpResponse<String> first = keyed("/mcp/test/sdk-stream", this.token, call, key, "Mcp-Session-Id", session);
		HttpResponse<String> retry = keyed("/mcp/test/sdk-stream", this.token, call.replace("\"id\":7", "\"id\":8"),
				key, "Mcp-Session-Id", session);
		HttpResponse<String> notes = post("/mcp/test/sdk-stream", this.token,
				"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"notes_list\","
						+ "\"arguments\":{}}}",
				"Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-06-18");

		assertThat(first.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(retry.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(retry.body()).startsWith("{").contains("\"id\":8").contains("created");
		assertThat(notes.body().split(key, -1)).as("the note was created once").hasSize(2);
	}

	@Test
	void progressNotificationsAreNotReplayedOnlyTheFinalResponse() {
		upstream.reply(Replies.sse(List.of(progress(1), progress(2), message(RESPONSE)), 0));
		String key = uniqueKey();

		HttpResponse<String> first = keyedCall(key);
		HttpResponse<String> retry = keyedCall(key);

		assertThat(first.body()).contains("notifications/progress");
		assertThat(retry.body()).isEqualTo(RESPONSE);
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void aStreamWithAServerToClientRequestIsNotReplayable() {
		upstream.reply(Replies.sse(List.of(
				message("{\"jsonrpc\":\"2.0\",\"id\":\"e1\",\"method\":\"elicitation/create\"," + "\"params\":{}}"),
				message(RESPONSE)), 0));
		String key = uniqueKey();
		keyedCall(key);

		assertGatewayError(keyedCall(key), 409, "idempotency_response_not_replayable");
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void aStreamWhoseResponseHasAnotherIdOrThatHoldsTwoResponsesIsNotReplayable() {
		String otherId = uniqueKey();
		upstream.reply(Replies.sse(List.of(message(RESPONSE.replace("\"id\":1", "\"id\":2"))), 0));
		keyedCall(otherId);
		String twice = uniqueKey();
		upstream.reply(Replies.sse(List.of(message(RESPONSE), message(RESPONSE)), 0));
		keyedCall(twice);

		assertGatewayError(keyedCall(otherId), 409, "idempotency_response_not_replayable");
		assertGatewayError(keyedCall(twice), 409, "idempotency_response_not_replayable");
	}

	@Test
	void aStreamCutMidwayIsAnUnknownOutcome() {
		upstream.reply(Replies.sseCut());
		String key = uniqueKey();
		assertThatIllegalStateException().as("the client sees the stream break")
			.isThrownBy(() -> keyed("/mcp/test/slow", this.token, toolCall(1, "echo"), key));

		assertGatewayError(keyed("/mcp/test/slow", this.token, toolCall(1, "echo"), key), 409,
				"idempotency_outcome_unknown");
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void aStreamLargerThanTheCapIsNotReplayable() {
		String padding = "x".repeat(33 * 1024);
		upstream.reply(Replies.sse(List.of(message("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
				+ "\"params\":{\"data\":\"" + padding + "\"}}"), message(RESPONSE)), 0));
		String key = uniqueKey();
		keyedCall(key);

		assertGatewayError(keyedCall(key), 409, "idempotency_response_not_replayable");
	}

	@Test
	void aClientThatLeavesMidStreamGetsTheReplayOnItsRetryAndTheToolRanOnce() throws Exception {
		upstream.reply(Replies.sse(List.of(progress(1), progress(2), progress(3), message(RESPONSE)), 500));
		String key = uniqueKey();
		HttpResponse<InputStream> first = http.send(keyedRequest(key), HttpResponse.BodyHandlers.ofInputStream());
		InputStream body = first.body();
		assertThat(body.read(new byte[16])).isPositive();
		Thread.sleep(500);
		body.close();

		// The upstream stream takes 1.5 s more; the gateway reads it to its end.
		await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
			HttpResponse<String> retry = keyedCall(key);
			assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");
			assertThat(retry.body()).isEqualTo(RESPONSE);
		});
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void anSdkRetryWithANewIdGetsTheReplayWithItsOwnIdAndOtherArgumentsConflict() {
		upstream.reply(Replies.raw(200, "application/json", RESPONSE));
		String key = uniqueKey();
		keyed("/mcp/test/echo", this.token, toolCall(1, "echo"), key);

		HttpResponse<String> retry = keyed("/mcp/test/echo", this.token,
				toolCall(1, "echo").replace("\"id\":1", "\"id\":2"), key);

		assertThat(retry.body()).isEqualTo(RESPONSE.replace("\"id\":1", "\"id\":2"));
		assertGatewayError(keyed("/mcp/test/echo", this.token, toolCall(3, "notes_create"), key), 409,
				"idempotency_key_conflict");
		assertGatewayError(
				keyed("/mcp/test/echo", this.token, toolCall(4, "echo").replace("secret-argument-4", "x"), key), 409,
				"idempotency_key_conflict");
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void aCancelledKeyedCallIsAnUnknownOutcomeAtOnceFreesItsSlotAndNeverRunsAgain() throws Exception {
		CountDownLatch arrived = new CountDownLatch(1);
		upstream.reply(slowJson(arrived, 900));
		String key = uniqueKey();
		int inFlightBefore = this.store.stats().inFlight();
		CompletableFuture<HttpResponse<String>> call = CompletableFuture
			.supplyAsync(() -> keyed("/mcp/test/slow", this.token, toolCall(41, "echo"), key));
		assertThat(arrived.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(this.store.stats().inFlight()).isEqualTo(inFlightBefore + 1);
		upstream.reply(Replies.raw(202, null, ""));

		long cancelledAt = System.nanoTime();
		assertThat(post("/mcp/test/slow", this.token, cancelled(41)).statusCode()).isEqualTo(202);
		HttpResponse<String> retry = keyed("/mcp/test/slow", this.token, toolCall(41, "echo"), key);

		assertGatewayError(retry, 409, "idempotency_outcome_unknown");
		assertThat(Duration.ofNanos(System.nanoTime() - cancelledAt)).isLessThan(Duration.ofSeconds(1));
		assertThat(this.store.stats().inFlight()).isEqualTo(inFlightBefore);
		call.get(10, TimeUnit.SECONDS);
		assertGatewayError(keyed("/mcp/test/slow", this.token, toolCall(41, "echo"), key), 409,
				"idempotency_outcome_unknown");
		assertThat(upstream.received().stream().filter((r) -> r.bodyText().contains("tools/call")).count())
			.as("the tool call reached the upstream once; the cancellation was forwarded")
			.isEqualTo(1);
		assertThat(upstream.received().stream().filter((r) -> r.bodyText().contains("notifications/cancelled")))
			.hasSize(1);
	}

	@Test
	void aCancellationFromAnotherPrincipalChangesNothing() throws Exception {
		CountDownLatch arrived = new CountDownLatch(1);
		upstream.reply(slowJson(arrived, 700));
		String key = uniqueKey();
		CompletableFuture<HttpResponse<String>> call = CompletableFuture
			.supplyAsync(() -> keyed("/mcp/test/slow", this.token, toolCall(42, "echo"), key));
		assertThat(arrived.await(5, TimeUnit.SECONDS)).isTrue();
		upstream.reply(Replies.raw(202, null, ""));

		post("/mcp/test/slow", validToken(), cancelled(42));
		HttpResponse<String> retry = keyed("/mcp/test/slow", this.token, toolCall(42, "echo"), key);

		assertGatewayError(retry, 409, "idempotency_in_flight");
		assertThat(call.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		assertThat(keyed("/mcp/test/slow", this.token, toolCall(42, "echo"), key).headers()
			.firstValue("Idempotency-Replayed")).hasValue("true");
	}

	@Test
	void twentyKeyedEventStreamCallsInOneScopeAreAllAnsweredWithoutCapacityRefusals() {
		upstream.reply(Replies.sse(List.of(progress(1), message(RESPONSE)), 0));
		List<Integer> statuses = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			statuses.add(keyedCall(uniqueKey()).statusCode());
		}

		assertThat(statuses).containsOnly(200);
	}

	private HttpRequest keyedRequest(String key) {
		return HttpRequest.newBuilder(uri("/mcp/test/echo"))
			.header("Authorization", "Bearer " + this.token)
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString(toolCall(1, "echo")))
			.build();
	}

	private static Reply slowJson(CountDownLatch arrived, long millis) {
		return (request, exchange) -> {
			arrived.countDown();
			try {
				Thread.sleep(millis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			byte[] body = RESPONSE.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		};
	}

	private static String cancelled(int id) {
		return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":" + id
				+ ",\"reason\":\"timeout\"}}";
	}

	private static String progress(int n) {
		return message("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,"
				+ "\"progress\":" + n + "}}");
	}

	private static String message(String json) {
		return "event: message\ndata: " + json + "\n\n";
	}

}
