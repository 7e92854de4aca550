package io.github.mcpgateway.e2e;

import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import io.github.mcpgateway.e2e.IdempotentToolCalls.Outcome;
import io.github.mcpgateway.support.Replies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The Java recipe ({@link IdempotentToolCalls}) with the official MCP Java SDK client,
 * through the gateway, with the request hash that leaves out the JSON-RPC id: the SDK
 * numbers every attempt anew, and a retry still matches its first call.
 */
@TestPropertySource(properties = "gateway.idempotency.request-hash=without-jsonrpc-id")
class JavaSdkIdempotencyRecipeTest extends JavaSdkRecipeTestSupport {

	private static final String SDK_JSON = "/mcp/test/sdk-json";

	private final IdempotentToolCalls calls = new IdempotentToolCalls();

	@Test
	void callToolWhenRepeatedWithTheSameKeyThenReplayedAndTheToolRanOnce() {
		McpSyncClient client = client(this.calls, SDK_JSON);
		String key = UUID.randomUUID().toString();
		String note = "buy milk " + key;
		int executions = sdkJsonServer.tools().executions();

		Outcome first = this.calls.callTool(client, createNote(note), key, 3);
		Outcome again = this.calls.callTool(client, createNote(note), key, 3);

		assertThat(summaries(first.attempts())).containsExactly("200");
		assertThat(summaries(again.attempts())).containsExactly("200 replayed");
		assertThat(text(again.result())).isEqualTo(text(first.result())).matches("note \\d+ created");
		assertThat(sdkJsonServer.tools().executions()).as("tool runs").isEqualTo(executions + 1);
		assertThat(sentToolCalls()).extracting(Sent::key).containsExactly(key, key);
		assertThat(sentToolCalls()).extracting(Sent::id).doesNotHaveDuplicates();
		String notes = text(client.callTool(CallToolRequest.builder("notes_list").build()));
		assertThat(Arrays.stream(notes.split("\n")).filter(note::equals)).hasSize(1);
	}

	@Test
	void callToolWhenTheSameKeyComesWithOtherArgumentsThenKeyConflictAndNoRetry() {
		McpSyncClient client = client(this.calls, SDK_JSON);
		String key = UUID.randomUUID().toString();
		this.calls.callTool(client, createNote("first " + key), key, 3);
		int executions = sdkJsonServer.tools().executions();

		assertThatExceptionOfType(IdempotentCallException.class)
			.isThrownBy(() -> this.calls.callTool(client, createNote("other " + key), key, 3))
			.satisfies((ex) -> {
				assertThat(ex.status()).isEqualTo(409);
				assertThat(ex.code()).isEqualTo("idempotency_key_conflict");
				assertThat(summaries(ex.attempts())).containsExactly("409 idempotency_key_conflict");
			});
		assertThat(sdkJsonServer.tools().executions()).isEqualTo(executions);
	}

	@Test
	void callToolWhenTheFirstAnswerIsLostThenTheRetryGetsTheReplay() {
		McpSyncClient client = client(this.calls, SDK_JSON);
		client.initialize();
		int executions = sdkJsonServer.tools().executions();
		this.network.loseNextAnswer();

		Outcome outcome = this.calls.callTool(client, createNote("lost answer " + UUID.randomUUID()), 3);

		assertThat(summaries(outcome.attempts())).containsExactly("no answer", "200 replayed");
		assertThat(text(outcome.result())).matches("note \\d+ created");
		assertThat(sdkJsonServer.tools().executions()).as("tool runs").isEqualTo(executions + 1);
	}

	@Test
	void callToolWhenTheFirstAttemptIsStillRunningThenWaitsRetryAfterAndGetsTheReplay() {
		// The upstream holds the call until the retry has been told "in flight".
		CountDownLatch inFlightSeen = new CountDownLatch(1);
		upstream.reply(statelessMcpServer((request, exchange) -> {
			try {
				inFlightSeen.await(5, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			Replies.jsonResult("{\"content\":[{\"type\":\"text\",\"text\":\"slow note created\"}]}")
				.write(request, exchange);
		}));
		IdempotentToolCalls calls = new IdempotentToolCalls((attempt) -> {
			if ("idempotency_in_flight".equals(attempt.code())) {
				inFlightSeen.countDown();
			}
		});
		McpSyncClient client = client(calls, "/mcp/test/echo");
		client.initialize();
		this.network.dropNextOnceDelivered(() -> toolCallsReceivedUpstream() == 1);

		Outcome outcome = calls.callTool(client, createNote("slow"), 3);

		assertThat(summaries(outcome.attempts())).containsExactly("no answer", "409 idempotency_in_flight",
				"200 replayed");
		assertThat(text(outcome.result())).isEqualTo("slow note created");
		assertThat(toolCallsReceivedUpstream()).isEqualTo(1);
	}

	@Test
	void callToolWhenTheOutcomeIsUnknownThenStopsAndTheSameKeyNeverRunsAgain() {
		upstream.reply(statelessMcpServer(Replies.raw(500, "text/plain", "upstream broke")));
		McpSyncClient client = client(this.calls, "/mcp/test/echo");
		String key = UUID.randomUUID().toString();

		assertThatExceptionOfType(IdempotentCallException.class)
			.isThrownBy(() -> this.calls.callTool(client, createNote("maybe"), key, 3))
			.satisfies((ex) -> assertThat(summaries(ex.attempts())).containsExactly("500"));
		assertThatExceptionOfType(IdempotentCallException.class)
			.isThrownBy(() -> this.calls.callTool(client, createNote("maybe"), key, 3))
			.satisfies((ex) -> {
				assertThat(ex.code()).isEqualTo("idempotency_outcome_unknown");
				assertThat(summaries(ex.attempts())).containsExactly("409 idempotency_outcome_unknown");
			});
		assertThat(toolCallsReceivedUpstream()).isEqualTo(1);
	}

}
