package io.github.mcpgateway.idempotency;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;

import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Floods from one principal cannot stop another's keyed calls, and tombstones survive
 * them.
 */
class IdempotencyFloodIntegrationTest extends IdempotencyIntegrationTest {

	private final String victim = TestJwts.jwt().human("victim-" + uniqueKey()).sign();

	@Test
	void thousandsOfUniqueKeysFromOnePrincipalLeaveOthersWorkingAndTombstonesIntact() {
		upstream.reply(Replies.raw(500, "application/json", "{}"));
		String tombstoned = uniqueKey();
		keyed("/mcp/test/echo", this.victim, toolCall(1, "echo"), tombstoned);
		int tombstonesBefore = this.store.stats().tombstones();
		upstream.reply(Replies.jsonResult("{}"));

		ExecutorService pool = Executors.newFixedThreadPool(8);
		try {
			List<CompletableFuture<Integer>> flood = new ArrayList<>();
			for (int i = 0; i < 2_000; i++) {
				flood.add(CompletableFuture.supplyAsync(
						() -> keyed("/mcp/test/echo", this.token, toolCall(1, "echo"), uniqueKey()).statusCode(),
						pool));
			}
			flood.forEach(CompletableFuture::join);
		}
		finally {
			pool.shutdownNow();
		}

		assertThat(this.store.stats().entries()).isLessThanOrEqualTo(256);
		assertThat(this.store.stats().tombstones()).isGreaterThanOrEqualTo(tombstonesBefore);
		assertGatewayError(keyed("/mcp/test/echo", this.victim, toolCall(1, "echo"), tombstoned), 409,
				"idempotency_outcome_unknown");
		HttpResponse<String> victimCall = keyed("/mcp/test/echo", this.victim, toolCall(2, "echo"), uniqueKey());
		assertThat(victimCall.statusCode()).isEqualTo(200);
		assertThat(post("/mcp/test/echo", this.token, toolCall(3, "echo")).statusCode()).isEqualTo(200);
	}

	@Test
	void slowInFlightKeysFromOnePrincipalDoNotBlockAnother() {
		upstream.reply(Replies.silentFor(800, Replies.jsonResult("{}")));
		ExecutorService pool = Executors.newFixedThreadPool(12);
		try {
			List<CompletableFuture<Integer>> slow = new ArrayList<>();
			for (int i = 0; i < 12; i++) {
				slow.add(CompletableFuture.supplyAsync(
						() -> keyed("/mcp/test/slow", this.token, toolCall(1, "echo"), uniqueKey()).statusCode(),
						pool));
			}
			await().atMost(Duration.ofSeconds(5)).until(() -> this.store.stats().inFlight() >= 4);

			HttpResponse<String> other = keyed("/mcp/test/echo", this.victim, toolCall(1, "echo"), uniqueKey());
			assertThat(other.statusCode()).isEqualTo(200);
			assertThat(slow.stream().map(CompletableFuture::join)).allMatch((status) -> status == 200 || status == 429)
				.contains(429);
		}
		finally {
			pool.shutdownNow();
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> this.store.stats().inFlight() == 0);
	}

}
