package io.github.mcpgateway.idempotency;

import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;

import io.github.mcpgateway.support.RawHttp;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Scope, authorization before replay, concurrency, disconnects and capacity. */
class IdempotencyScopeIntegrationTest extends IdempotencyIntegrationTest {

	@Test
	void sixtyFourConcurrentDuplicatesRunTheToolExactlyOnce() throws Exception {
		upstream.reply(Replies.silentFor(300, Replies.jsonResult("{\"ran\":true}")));
		String key = uniqueKey();
		String token = this.token;
		ExecutorService pool = Executors.newFixedThreadPool(64);
		CountDownLatch start = new CountDownLatch(1);
		List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
		try {
			for (int i = 0; i < 64; i++) {
				calls.add(CompletableFuture.supplyAsync(() -> {
					awaitLatch(start);
					return keyed("/mcp/test/echo", token, toolCall(1, "echo"), key);
				}, pool));
			}
			start.countDown();
			List<HttpResponse<String>> responses = calls.stream().map(CompletableFuture::join).toList();

			assertThat(upstream.count()).isEqualTo(1);
			assertThat(responses).allSatisfy((response) -> {
				boolean replayOrFirst = response.statusCode() == 200;
				boolean inFlight = response.statusCode() == 409
						&& response.body().contains("\"code\":\"idempotency_in_flight\"")
						&& response.headers().firstValue("Retry-After").equals(java.util.Optional.of("1"));
				assertThat(replayOrFirst || inFlight).as(response.statusCode() + " " + response.body()).isTrue();
			});
			assertThat(responses.stream()
				.filter((r) -> r.statusCode() == 200)
				.filter((r) -> r.headers().firstValue("Idempotency-Replayed").isEmpty())).hasSize(1);
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void sameKeyFromAnotherPrincipalSessionOrServerIsUnrelated() {
		upstream.reply(Replies.sessions("scope"));
		String alice = TestJwts.jwt().human("alice").sign();
		String sessionA = initialize("/mcp/test/echo", alice);
		String sessionB = initialize("/mcp/test/echo", alice);
		int before = upstream.count();
		String key = uniqueKey();

		keyed("/mcp/test/echo", alice, toolCall(1, "echo"), key, "Mcp-Session-Id", sessionA);
		keyed("/mcp/test/echo", alice, toolCall(1, "echo"), key, "Mcp-Session-Id", sessionB);
		keyed("/mcp/test/echo", TestJwts.jwt().human("carol").sign(), toolCall(1, "echo"), key);
		keyed("/mcp/test/slow", alice, toolCall(1, "echo"), key);
		HttpResponse<String> replay = keyed("/mcp/test/echo", alice, toolCall(1, "echo"), key, "Mcp-Session-Id",
				sessionA);

		assertThat(upstream.count()).isEqualTo(before + 4);
		assertThat(replay.headers().firstValue("Idempotency-Replayed")).hasValue("true");
	}

	@Test
	void replayIsRefusedLikeAFirstCallAfterTheGrantIsRemoved() {
		String key = uniqueKey();
		assertThat(keyedCall(key).statusCode()).isEqualTo(200);

		policy.write(policy.standard().replace("tools: [echo, \"notes_*\"]", "tools: [\"notes_*\"]"));
		this.policyReloader.reloadNow();

		HttpResponse<String> retry = keyedCall(key);
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.body()).contains("\"code\":\"tool_not_granted\"");
	}

	@Test
	void replayIsRefusedLikeAFirstCallAfterTheSessionOrPrincipalIsRevoked() {
		upstream.reply(Replies.sessions("revoke"));
		String alice = TestJwts.jwt().human("alice").sign();
		String session = initialize("/mcp/test/echo", alice);
		String key = uniqueKey();
		assertThat(keyed("/mcp/test/echo", alice, toolCall(1, "echo"), key, "Mcp-Session-Id", session).statusCode())
			.isEqualTo(200);
		String otherKey = uniqueKey();
		assertThat(keyed("/mcp/test/echo", alice, toolCall(1, "echo"), otherKey).statusCode()).isEqualTo(200);

		revocations.write("{\"sessions\":[\"" + session + "\"]}");
		this.revocationSync.syncNow();
		assertThat(keyed("/mcp/test/echo", alice, toolCall(1, "echo"), key, "Mcp-Session-Id", session).statusCode())
			.isEqualTo(404);

		revocations.write("{\"principals\":[{\"human\":\"alice\"}]}");
		this.revocationSync.syncNow();
		HttpResponse<String> revoked = keyed("/mcp/test/echo", alice, toolCall(1, "echo"), otherKey);
		assertThat(revoked.statusCode()).isEqualTo(200);
		assertThat(revoked.body()).contains("\"code\":\"principal_revoked\"");
	}

	@Test
	void clientThatDisconnectsDuringTheCallGetsTheReplayOnRetry() throws IOException {
		upstream
			.reply(Replies.silentFor(600, Replies.jsonResult("{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}")));
		String key = uniqueKey();
		String token = this.token;

		try (Socket socket = RawHttp.open(this.port, RawHttp.post("/mcp/test/echo", toolCall(1, "echo"),
				"Authorization: Bearer " + token, "Idempotency-Key: " + key))) {
			await().atMost(Duration.ofSeconds(5)).until(() -> upstream.count() == 1);
			socket.setSoLinger(true, 0);
		}

		await().atMost(Duration.ofSeconds(5))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> keyed("/mcp/test/echo", token, toolCall(1, "echo"), key).statusCode() == 200);
		HttpResponse<String> retry = keyed("/mcp/test/echo", token, toolCall(1, "echo"), key);
		assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(retry.body()).contains("\"text\":\"done\"");
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void fullScopeGetsCapacityWhileUnkeyedTrafficFlows() {
		upstream.reply(Replies.silentFor(700, Replies.jsonResult("{}")));
		String token = this.token;
		List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			String key = uniqueKey();
			inFlight.add(CompletableFuture.supplyAsync(() -> keyed("/mcp/test/slow", token, toolCall(1, "echo"), key)));
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> this.store.stats().inFlight() == 4);

		HttpResponse<String> refused = keyed("/mcp/test/slow", token, toolCall(1, "echo"), uniqueKey());
		HttpResponse<String> unkeyed = post("/mcp/test/echo", token, toolCall(1, "echo"));

		assertGatewayError(refused, 429, "idempotency_capacity");
		assertThat(unkeyed.statusCode()).isEqualTo(200);
		assertThat(inFlight).allSatisfy((call) -> assertThat(call.join().statusCode()).isEqualTo(200));
		assertThat(this.store.stats().inFlight()).isZero();
	}

	@Test
	void circuitOpenOrBulkheadFullReleasesTheKey() {
		upstream.reply(Replies.silentFor(700, Replies.jsonResult("{}")));
		List<CompletableFuture<HttpResponse<String>>> filling = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			int id = i;
			filling.add(CompletableFuture.supplyAsync(() -> post("/mcp/test/echo", this.token, toolCall(id, "echo"))));
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> upstream.count() == 4);
		String key = uniqueKey();

		assertThat(keyedCall(key).statusCode()).isEqualTo(503);
		filling.forEach(CompletableFuture::join);
		upstream.reply(Replies.jsonResult("{}"));

		HttpResponse<String> retry = keyedCall(key);
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotency-Replayed")).isEmpty();
		assertThat(upstream.count()).isEqualTo(5);
	}

	private static void awaitLatch(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
