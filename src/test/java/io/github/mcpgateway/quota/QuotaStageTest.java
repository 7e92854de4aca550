package io.github.mcpgateway.quota;

import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.RateLimit;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.StageDecision;
import io.github.mcpgateway.request.StageDecision.Defer;
import io.github.mcpgateway.request.StageDecision.Refuse;
import io.github.mcpgateway.request.TestExchanges;
import io.github.mcpgateway.support.MutableClock;
import io.github.mcpgateway.transport.McpHeaders;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The quota stage's decisions, driven with hand-built exchanges against the in-memory
 * quota store.
 */
class QuotaStageTest {

	private static final String CALL = """
			{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}""";

	private static final String LIST = """
			{"jsonrpc":"2.0","id":1,"method":"tools/list"}""";

	private final McpServerPolicy limited = TestExchanges.server("""
			  - namespace: test
			    name: limited
			    uid: uid-limited
			    upstream: http://upstream.example/mcp
			    path: /mcp/test/limited
			    grants:
			      - tools: ["*"]
			    limits:
			      - name: two-calls
			        tokens: 2
			        period: 1h
			""");

	private final McpPrincipal alice = new McpPrincipal("alice", null, "blue");

	private final QuotaStage stage = new QuotaStage(new MemoryQuotaStore(new MutableClock()),
			new QuotaMeters(new SimpleMeterRegistry()), false);

	@Test
	void appliesToWhenTheServerHasNoLimitsThenFalse() {
		McpServerPolicy unlimited = TestExchanges.server("""
				  - namespace: test
				    name: open
				    upstream: http://upstream.example/mcp
				    path: /mcp/test/open
				    grants:
				      - tools: ["*"]
				""");

		assertThat(this.stage.appliesTo(call(unlimited))).isFalse();
		assertThat(this.stage.appliesTo(call(this.limited))).isTrue();
	}

	@Test
	void decideWhenTheLimitIsSpentThenRateLimitedNamingTheLimit() {
		assertThat(this.stage.decide(call(this.limited))).isSameAs(StageDecision.proceed());
		assertThat(this.stage.decide(call(this.limited))).isSameAs(StageDecision.proceed());

		StageDecision third = this.stage.decide(call(this.limited));

		assertThat(third).isInstanceOf(Refuse.class);
		Refuse refusal = (Refuse) third;
		assertThat(refusal.error().code()).isEqualTo(GatewayErrors.RATE_LIMITED.code());
		assertThat(refusal.error().details()).containsEntry("limit", "two-calls");
		assertThat(refusal.reason()).isEqualTo(new LimitReached("two-calls"));
	}

	@Test
	void decideWhenTheRequestIsNotAToolCallThenATokensLimitTakesNothing() {
		for (int i = 0; i < 3; i++) {
			assertThat(this.stage.decide(exchange(this.limited, LIST))).isSameAs(StageDecision.proceed());
		}

		assertThat(this.stage.decide(call(this.limited))).isSameAs(StageDecision.proceed());
		assertThat(this.stage.decide(call(this.limited))).isSameAs(StageDecision.proceed());
	}

	@Test
	void decideWhenTheCallIsKeyedThenTheChargeIsDeferredAndTakesNothingUntilRun() {
		StageDecision keyed = this.stage.decide(TestExchanges.post(this.limited, CALL)
			.principal(this.alice)
			.header(McpHeaders.IDEMPOTENCY_KEY, "key-1")
			.build());

		assertThat(keyed).isInstanceOf(Defer.class);
		assertThat(this.stage.decide(call(this.limited))).isSameAs(StageDecision.proceed());
		assertThat(this.stage.decide(call(this.limited))).isSameAs(StageDecision.proceed());
		Refuse charged = ((Defer) keyed).charge().charge();
		assertThat(charged).isNotNull();
		assertThat(charged.error().code()).isEqualTo(GatewayErrors.RATE_LIMITED.code());
	}

	@Test
	void decideWhenTheStoreCannotAnswerThenFailsClosedUnlessConfiguredToAllow() {
		QuotaStore unavailable = new QuotaStore() {

			@Override
			public QuotaResult consume(List<QuotaBucket> buckets) {
				throw new QuotaStoreException("unavailable", new IllegalStateException("down"));
			}

			@Override
			public List<BucketLevel> peek(List<QuotaBucket> buckets) {
				throw new QuotaStoreException("unavailable", new IllegalStateException("down"));
			}

		};
		QuotaMeters meters = new QuotaMeters(new SimpleMeterRegistry());

		assertThat(new QuotaStage(unavailable, meters, false).decide(call(this.limited)))
			.isEqualTo(StageDecision.refuse(GatewayErrors.QUOTA_STORE_UNAVAILABLE));
		assertThat(new QuotaStage(unavailable, meters, true).decide(call(this.limited)))
			.isSameAs(StageDecision.proceed());
	}

	@Test
	void appliesToWhenTheRequestCameThroughALimitedVirtualServerThenTrue() {
		McpServerPolicy unlimited = TestExchanges.server("""
				  - namespace: test
				    name: open
				    upstream: http://upstream.example/mcp
				    path: /mcp/test/open
				    grants:
				      - tools: ["*"]
				""");
		McpExchange through = call(unlimited);
		VirtualQuota.attach(through.request(), new VirtualQuota(workspace(1, null), "open_echo"));

		assertThat(this.stage.appliesTo(through)).isTrue();
		assertThat(this.stage.decide(through)).isSameAs(StageDecision.proceed());
		assertThat(this.stage.decide(through)).isInstanceOf(Refuse.class);
	}

	@Test
	void decideWhenTheVirtualServersLimitRefusesThenItIsNamedAndTheMembersLimitKeepsItsToken() {
		VirtualQuota through = new VirtualQuota(workspace(1, null), "limited_echo");

		assertThat(this.stage.decide(callThrough(through))).isSameAs(StageDecision.proceed());
		StageDecision refused = this.stage.decide(callThrough(through));

		assertThat(refused).isInstanceOf(Refuse.class);
		assertThat(((Refuse) refused).error().details()).containsEntry("limit", "shared");
		assertThat(this.stage.decide(call(this.limited))).as("one token of two-calls left")
			.isSameAs(StageDecision.proceed());
		assertThat(this.stage.decide(call(this.limited))).isInstanceOf(Refuse.class);
	}

	@Test
	void decideWhenTheVirtualLimitNamesAnotherExposedToolThenItTakesNothing() {
		VirtualQuota through = new VirtualQuota(workspace(1, "other_*"), "limited_echo");

		assertThat(this.stage.decide(callThrough(through))).isSameAs(StageDecision.proceed());
		assertThat(this.stage.decide(callThrough(through))).isSameAs(StageDecision.proceed());
		assertThat(this.stage.decide(callThrough(through))).as("the member's own limit").isInstanceOf(Refuse.class);
	}

	@Test
	void decideWhenTheCallThroughAVirtualServerIsKeyedThenBothChargesAreDeferred() {
		VirtualQuota through = new VirtualQuota(workspace(1, null), "limited_echo");
		McpExchange keyed = TestExchanges.post(this.limited, CALL)
			.principal(this.alice)
			.header(McpHeaders.IDEMPOTENCY_KEY, "key-1")
			.build();
		VirtualQuota.attach(keyed.request(), through);

		StageDecision decision = this.stage.decide(keyed);

		assertThat(decision).isInstanceOf(Defer.class);
		assertThat(this.stage.decide(callThrough(through))).as("the deferred call took nothing yet")
			.isSameAs(StageDecision.proceed());
		assertThat(((Defer) decision).charge().charge()).isNotNull();
	}

	private McpExchange callThrough(VirtualQuota through) {
		McpExchange exchange = call(this.limited);
		VirtualQuota.attach(exchange.request(), through);
		return exchange;
	}

	/**
	 * A virtual server over {@code test/limited} whose own limit {@code shared} gives
	 * {@code tokens} an hour, on the {@code tools} patterns when given.
	 */
	private static VirtualServerPolicy workspace(int tokens, String tools) {
		RateLimit shared = new RateLimit("shared", null, null, null, (tools != null) ? List.of(tools) : null, tokens,
				Duration.ofHours(1), null);
		return new VirtualServerPolicy("test", "workspace", "uid-workspace", "/mcp/test/workspace",
				List.of(new VirtualServerPolicy.Member("test/limited", "limited", null)), null, List.of(shared));
	}

	private McpExchange call(McpServerPolicy server) {
		return exchange(server, CALL);
	}

	private McpExchange exchange(McpServerPolicy server, String json) {
		return TestExchanges.post(server, json).principal(this.alice).build();
	}

}
