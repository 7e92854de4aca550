package io.github.mcpgateway.idempotency;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;

import io.github.mcpgateway.support.Replies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What the first keyed request's outcome makes of a retry, counted at a real upstream.
 * Runs under the contract's defaults here, and with the extensions of ADR 0008 on in
 * {@link IdempotencyOutcomesWithExtensionsIntegrationTest}: a test whose answer an
 * extension changes asks {@link #replaysEventStreams()} or {@link #hashesWithoutId()}.
 */
class IdempotencyOutcomesIntegrationTest extends IdempotencyIntegrationTest {

	@Autowired
	IdempotencyProperties properties;

	boolean replaysEventStreams() {
		return this.properties.eventStreams() == IdempotencyProperties.EventStreams.REPLAY;
	}

	boolean hashesWithoutId() {
		return this.properties.requestHash() == IdempotencyProperties.RequestHash.WITHOUT_JSONRPC_ID;
	}

	@Test
	void successfulReplyIsReplayedWithStatusContentTypeAndBodyWithoutRunningAgain() {
		upstream.reply(Replies.raw(200, "application/json; charset=utf-8",
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ran once\"}]}}"));
		String key = uniqueKey();

		HttpResponse<String> first = keyedCall(key);
		HttpResponse<String> retry = keyedCall(key);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().firstValue("Idempotency-Replayed")).isEmpty();
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(retry.headers().firstValue("Content-Type")).isEqualTo(first.headers().firstValue("Content-Type"))
			.hasValueSatisfying(
					(type) -> assertThat(type).startsWith("application/json").containsIgnoringCase("utf-8"));
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void jsonRpcErrorAndToolErrorInsideASuccessAreReplayedToo() {
		String key = uniqueKey();
		upstream.reply(Replies.raw(200, "application/json",
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"bad\"}}"));
		keyedCall(key);
		String toolErrorKey = uniqueKey();
		upstream.reply(Replies.jsonResult("{\"content\":[],\"isError\":true}"));
		keyedCall(toolErrorKey);

		assertThat(keyedCall(key).body()).contains("\"code\":-32602");
		assertThat(keyedCall(toolErrorKey).body()).contains("\"isError\":true");
		assertThat(upstream.count()).isEqualTo(2);
	}

	/**
	 * The store's monitor is held while the upstream answers, so recording the outcome
	 * blocks: the client must not have the reply before the outcome is recorded, whatever
	 * the status, or a retry sent the moment it arrives would find the key still in
	 * flight. (Replies carry a Content-Length, which on its own makes a servlet container
	 * send a response as soon as that many bytes are written.)
	 */
	@ParameterizedTest
	@ValueSource(ints = { 200, 422, 500 })
	void theReplyReachesTheClientOnlyAfterItsOutcomeIsRecorded(int status) throws Exception {
		CountDownLatch arrived = new CountDownLatch(1);
		CountDownLatch answer = new CountDownLatch(1);
		upstream.reply((request, exchange) -> {
			arrived.countDown();
			await(answer);
			Replies.raw(status, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}")
				.write(request, exchange);
		});
		String key = uniqueKey();
		CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> keyedCall(key));
		assertThat(arrived.await(10, TimeUnit.SECONDS)).isTrue();

		synchronized (this.store) {
			answer.countDown();
			assertThatExceptionOfType(TimeoutException.class).isThrownBy(() -> first.get(700, TimeUnit.MILLISECONDS));
		}

		assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(status);
		HttpResponse<String> retry = keyedCall(key);
		switch (status) {
			case 200 -> assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");
			case 422 -> assertThat(retry.statusCode()).isEqualTo(422);
			default -> assertGatewayError(retry, 409, "idempotency_outcome_unknown");
		}
		assertThat(upstream.count()).isEqualTo((status == 422) ? 2 : 1);
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void sameKeyWithDifferentRequestIsAConflict() {
		String key = uniqueKey();
		keyed("/mcp/test/echo", this.token, toolCall(1, "echo"), key);

		assertGatewayError(keyed("/mcp/test/echo", this.token, toolCall(1, "notes_create"), key), 409,
				"idempotency_key_conflict");
		HttpResponse<String> otherId = keyed("/mcp/test/echo", this.token,
				toolCall(1, "echo").replace("\"id\":1", "\"id\":\"1\""), key);
		if (hashesWithoutId()) {
			// The id is no part of the request: the retry gets the replay, with its id.
			assertThat(otherId.headers().firstValue("Idempotency-Replayed")).hasValue("true");
			assertThat(otherId.body()).contains("\"id\":\"1\"");
		}
		else {
			assertGatewayError(otherId, 409, "idempotency_key_conflict");
		}
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void clientErrorReleasesTheKeySoTheRetryRuns() {
		String key = uniqueKey();
		upstream.reply(Replies.raw(400, "application/json", "{\"error\":\"bad request\"}"));
		assertThat(keyedCall(key).statusCode()).isEqualTo(400);
		upstream.reply(Replies.jsonResult("{}"));

		assertThat(keyedCall(key).statusCode()).isEqualTo(200);
		assertThat(upstream.count()).isEqualTo(2);
	}

	@Test
	void serverErrorLeavesATombstoneAndTheToolNeverRunsAgain() {
		String key = uniqueKey();
		upstream.reply(Replies.raw(500, "application/json", "{}"));
		assertThat(keyed("/mcp/test/slow", this.token, toolCall(1, "echo"), key).statusCode()).isEqualTo(500);
		upstream.reply(Replies.jsonResult("{}"));

		for (int i = 0; i < 5; i++) {
			assertGatewayError(keyed("/mcp/test/slow", this.token, toolCall(1, "echo"), key), 409,
					"idempotency_outcome_unknown");
		}
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void timeoutLeavesATombstone() {
		String key = uniqueKey();
		upstream.reply(Replies.silentFor(1500, Replies.jsonResult("{}")));
		assertThat(keyed("/mcp/test/slow", this.token, toolCall(1, "echo"), key).statusCode()).isEqualTo(504);

		assertGatewayError(keyed("/mcp/test/slow", this.token, toolCall(1, "echo"), key), 409,
				"idempotency_outcome_unknown");
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void resetInTheMiddleOfTheBodyLeavesATombstone() {
		String key = uniqueKey();
		upstream.reply(Replies.resetMidBody());
		assertThat(keyed("/mcp/test/slow", this.token, toolCall(1, "echo"), key).statusCode()).isEqualTo(502);
		upstream.reply(Replies.jsonResult("{}"));

		for (int i = 0; i < 3; i++) {
			assertGatewayError(keyed("/mcp/test/slow", this.token, toolCall(1, "echo"), key), 409,
					"idempotency_outcome_unknown");
		}
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void eventStreamReachesTheFirstCallerIntactAndIsNotReplayable() {
		String events = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n";
		upstream.reply(Replies.sse(List.of(events), 0));
		String key = uniqueKey();

		HttpResponse<String> first = keyedCall(key);
		HttpResponse<String> retry = keyedCall(key);

		assertThat(first.body()).isEqualTo(events);
		if (replaysEventStreams()) {
			assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");
			assertThat(retry.headers().firstValue("Content-Type")).hasValue("application/json");
			assertThat(retry.body()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
		}
		else {
			assertGatewayError(retry, 409, "idempotency_response_not_replayable");
		}
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void gzipReplyReachesTheFirstCallerIntactAndIsNotReplayable() {
		upstream.reply(Replies.gzipped("{\"big\":true}"));
		String key = uniqueKey();

		HttpResponse<byte[]> first = sendBytes(key);

		assertThat(first.headers().firstValue("Content-Encoding")).hasValue("gzip");
		assertThat(gunzip(first.body())).contains("\"big\":true");
		assertGatewayError(keyedCall(key), 409, "idempotency_response_not_replayable");
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void replyOfExactlyTheCapIsReplayedAndOneByteMoreIsNot() {
		String atCap = uniqueKey();
		upstream.reply(Replies.sized(32 * 1024));
		HttpResponse<String> first = keyedCall(atCap);
		assertThat(first.body()).hasSize(32 * 1024);
		String overCap = uniqueKey();
		upstream.reply(Replies.sized(32 * 1024 + 1));
		assertThat(keyedCall(overCap).body()).hasSize(32 * 1024 + 1);

		HttpResponse<String> replay = keyedCall(atCap);
		assertThat(replay.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(first.body());
		assertGatewayError(keyedCall(overCap), 409, "idempotency_response_not_replayable");
		assertThat(upstream.count()).isEqualTo(2);
	}

	private HttpResponse<byte[]> sendBytes(String key) {
		try {
			return http.send(java.net.http.HttpRequest.newBuilder(uri("/mcp/test/echo"))
				.header("Authorization", "Bearer " + this.token)
				.header("Content-Type", "application/json")
				.header("Accept-Encoding", "gzip")
				.header("Idempotency-Key", key)
				.POST(java.net.http.HttpRequest.BodyPublishers.ofString(toolCall(1, "echo")))
				.build(), HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String gunzip(byte[] bytes) {
		try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(bytes))) {
			return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
		}
		catch (java.io.IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
