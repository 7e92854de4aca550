package io.github.mcpgateway.idempotency;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.idempotency.memory.InMemoryIdempotencyStore;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.StageDecision;
import io.github.mcpgateway.request.StageDecision.Commit;
import io.github.mcpgateway.request.StageDecision.Wrap;
import io.github.mcpgateway.request.TestExchanges;
import io.github.mcpgateway.support.MutableClock;
import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.transport.ReplyTap;
import io.github.mcpgateway.transport.StreamingMediaTypes;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Idempotency-Key stage's decisions and the outcome it records, driven with
 * hand-built exchanges against the in-memory store: the contract's admission checks, a
 * first call committed, a charge refused, a call in flight and a replay.
 */
class IdempotencyStageTest {

	private static final String CALL = """
			{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}""";

	private static final String REPLY = """
			{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}""";

	private final McpServerPolicy server = server("uid: uid-echo");

	private final McpPrincipal alice = new McpPrincipal("alice", null, "blue");

	private final IdempotencyStage stage = new IdempotencyStage(
			new InMemoryIdempotencyStore(IdempotencyProperties.Limits.defaults(), new MutableClock()),
			new Binder(new MapConfigurationPropertySource(Map.of())).bindOrCreate("gateway.idempotency",
					IdempotencyProperties.class),
			new StreamingMediaTypes(List.of(MediaType.TEXT_EVENT_STREAM)),
			new CapacityRefusals(new SimpleMeterRegistry()));

	@Test
	void appliesToWhenTheRequestCarriesNoKeyThenFalse() {
		assertThat(this.stage.appliesTo(TestExchanges.post(this.server, CALL).principal(this.alice).build())).isFalse();
		assertThat(this.stage.appliesTo(keyed(this.server, CALL, "key-1"))).isTrue();
	}

	@Test
	void decideWhenAKeyIsOnARequestOtherThanAToolCallThenUnsupportedAndRecordedAsRejected() throws IOException {
		McpExchange exchange = keyed(this.server, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", "key-1");

		assertThat(this.stage.decide(exchange))
			.isEqualTo(StageDecision.refuse(GatewayErrors.IDEMPOTENCY_UNSUPPORTED_REQUEST));
		assertThat(exchange.context().get(KeyedOutcome.SLOT))
			.isEqualTo(new KeyedOutcome(IdempotencyOutcome.REJECTED, null));
	}

	@Test
	void decideWhenTheCallerIsNotVerifiedThenRequiresVerifiedIdentity() throws IOException {
		McpExchange exchange = TestExchanges.post(this.server, CALL)
			.header(McpHeaders.IDEMPOTENCY_KEY, "key-1")
			.build();

		assertThat(this.stage.decide(exchange))
			.isEqualTo(StageDecision.refuse(GatewayErrors.IDEMPOTENCY_REQUIRES_VERIFIED_IDENTITY));
	}

	@Test
	void decideWhenTheServerHasNoUidThenIdempotencyUnavailable() throws IOException {
		assertThat(this.stage.decide(keyed(server(""), CALL, "key-1")))
			.isEqualTo(StageDecision.refuse(GatewayErrors.IDEMPOTENCY_UNAVAILABLE));
	}

	@Test
	void decideWhenTheKeyIsNewThenCommitsAndTheRunRecordsFirstAndTapsTheReply() throws IOException {
		McpExchange exchange = keyed(this.server, CALL, "key-1");

		StageDecision decision = this.stage.decide(exchange);

		assertThat(decision).isInstanceOf(Commit.class);
		assertThat(exchange.context().get(KeyedOutcome.SLOT)).as("nothing recorded before the charges").isNull();
		assertThat(((Commit) decision).run().decide()).isInstanceOf(Wrap.class);
		assertThat(exchange.context().get(KeyedOutcome.SLOT).outcome()).isEqualTo(IdempotencyOutcome.FIRST);
		assertThat(exchange.context().get(KeyedOutcome.SLOT).keyHash()).hasSize(16);
		assertThat(exchange.context().get(IdempotencyStage.REPLY_TAP)).isNotNull();
	}

	@Test
	void decideWhenTheKeyIsInFlightThenTheRetryIsRefusedInFlight() throws IOException {
		((Commit) this.stage.decide(keyed(this.server, CALL, "key-1"))).run().decide();
		McpExchange retry = keyed(this.server, CALL, "key-1");

		assertThat(this.stage.decide(retry)).isEqualTo(StageDecision.refuse(GatewayErrors.IDEMPOTENCY_IN_FLIGHT));
		assertThat(retry.context().get(KeyedOutcome.SLOT).outcome()).isEqualTo(IdempotencyOutcome.IN_FLIGHT);
	}

	@Test
	void decideWhenAChargeRefusedTheCommitThenTheKeyIsGivenBackAndRecordedAsRejected() throws IOException {
		McpExchange exchange = keyed(this.server, CALL, "key-1");
		Commit commit = (Commit) this.stage.decide(exchange);

		commit.withdraw().run();

		assertThat(exchange.context().get(KeyedOutcome.SLOT).outcome()).isEqualTo(IdempotencyOutcome.REJECTED);
		assertThat(this.stage.decide(keyed(this.server, CALL, "key-1"))).isInstanceOf(Commit.class);
	}

	@Test
	void decideWhenTheKeyedCallCompletedThenTheRetryIsAnsweredWithTheReplay() throws IOException {
		McpExchange first = keyed(this.server, CALL, "key-1");
		Wrap running = (Wrap) ((Commit) this.stage.decide(first)).run().decide();
		relayReply(first);
		assertThat(running.completion().complete(null)).isNull();
		McpExchange retry = keyed(this.server, CALL, "key-1");

		assertThat(this.stage.decide(retry)).isSameAs(StageDecision.answered());

		assertThat(retry.context().get(KeyedOutcome.SLOT).outcome()).isEqualTo(IdempotencyOutcome.REPLAY);
		assertThat(((MockHttpServletResponse) retry.response()).getContentAsString()).contains("\"text\":\"hi\"");
	}

	@Test
	void decideWhenAnUnkeyedCancellationNamesAKeyedCallInFlightThenSettlesItAsOutcomeUnknown() throws IOException {
		McpExchange first = keyed(this.server, CALL, "key-1");
		Wrap running = (Wrap) ((Commit) this.stage.decide(first)).run().decide();
		McpExchange cancelled = TestExchanges.post(this.server, """
				{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}""")
			.principal(this.alice)
			.build();

		assertThat(this.stage.appliesTo(cancelled)).isTrue();
		assertThat(this.stage.decide(cancelled)).isSameAs(StageDecision.proceed());

		assertThat(cancelled.context().get(KeyedOutcome.SLOT)).isEqualTo(
				new KeyedOutcome(IdempotencyOutcome.CANCELLED, first.context().get(KeyedOutcome.SLOT).keyHash()));
		running.completion().complete(null);
		assertThat(this.stage.decide(keyed(this.server, CALL, "key-1")))
			.isEqualTo(StageDecision.refuse(GatewayErrors.IDEMPOTENCY_OUTCOME_UNKNOWN));
	}

	/** What the proxy and the guard do with an upstream reply of a started call. */
	private static void relayReply(McpExchange exchange) throws IOException {
		exchange.context().upstream().dispatched(true);
		MockHttpServletResponse response = (MockHttpServletResponse) exchange.response();
		response.setStatus(200);
		response.setContentType(MediaType.APPLICATION_JSON_VALUE);
		byte[] reply = REPLY.getBytes(StandardCharsets.UTF_8);
		ReplyTap tap = exchange.context().get(IdempotencyStage.REPLY_TAP);
		tap.write(reply, 0, reply.length);
		response.getOutputStream().write(reply);
	}

	private McpExchange keyed(McpServerPolicy server, String json, String key) {
		return TestExchanges.post(server, json).principal(this.alice).header(McpHeaders.IDEMPOTENCY_KEY, key).build();
	}

	private static McpServerPolicy server(String uid) {
		return TestExchanges.server("""
				  - namespace: test
				    name: echo
				    %s
				    upstream: http://upstream.example/mcp
				    path: /mcp/test/echo
				    grants:
				      - tools: ["*"]
				""".formatted(uid.isEmpty() ? "identity: oauth" : uid));
	}

}
