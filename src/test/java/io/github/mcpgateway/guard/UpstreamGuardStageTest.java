package io.github.mcpgateway.guard;

import java.io.IOException;
import java.time.Duration;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.mock.web.MockHttpServletResponse;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.Refusals;
import io.github.mcpgateway.request.StageDecision;
import io.github.mcpgateway.request.StageDecision.Wrap;
import io.github.mcpgateway.request.TestExchanges;
import io.github.mcpgateway.support.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The upstream guard's decisions before dispatch and its completion after, with the real
 * circuit breakers and bulkheads of {@link UpstreamResilience}.
 */
class UpstreamGuardStageTest {

	private static final String CALL = """
			{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}""";

	private final McpServerPolicy server = TestExchanges.server("""
			  - namespace: test
			    name: echo
			    uid: uid-echo
			    upstream: http://upstream.example/mcp
			    path: /mcp/test/echo
			    grants:
			      - tools: ["*"]
			""");

	private final MutableClock clock = new MutableClock();

	private final UpstreamResilience resilience = new UpstreamResilience(new Settings(), this.clock);

	private final UpstreamGuardStage stage = new UpstreamGuardStage(this.resilience,
			new Refusals(new GatewayErrorRenderer(JsonMapper.builder().build())), new SimpleMeterRegistry(),
			new OpenEventStreams(this.clock),
			new StreamProbes(Duration.ofSeconds(1), Duration.ofSeconds(1), this.clock), this.clock);

	@Test
	void decideWhenTheCircuitIsOpenThenCircuitOpenWithRetryAfterAndNothingDispatched() {
		this.resilience.circuitBreaker(this.server).transitionToOpenState();
		McpExchange exchange = call();

		StageDecision decision = this.stage.decide(exchange);

		assertThat(decision)
			.isEqualTo(StageDecision.refuse(GatewayErrors.CIRCUIT_OPEN.withRetryAfter(Duration.ofSeconds(30))));
		assertThat(exchange.context().upstream().dispatched()).isFalse();
	}

	@Test
	void decideWhenTheBulkheadIsFullThenOverloadedUntilACallCompletes() throws IOException {
		Wrap first = (Wrap) this.stage.decide(call());

		assertThat(this.stage.decide(call())).isEqualTo(StageDecision.refuse(GatewayErrors.BULKHEAD_FULL));
		assertThat(first.completion().complete(null)).isNull();
		assertThat(this.stage.decide(call())).isInstanceOf(Wrap.class);
	}

	@Test
	void decideWhenAdmittedThenDispatchedWithTheResponseWrappedAndA5xxCountsAgainstTheCircuit() throws IOException {
		McpExchange exchange = call();

		StageDecision decision = this.stage.decide(exchange);

		assertThat(decision).isInstanceOf(Wrap.class);
		Wrap wrap = (Wrap) decision;
		assertThat(wrap.response()).isNotNull().isNotSameAs(exchange.response());
		assertThat(exchange.context().upstream().dispatched()).isTrue();
		wrap.response().setStatus(503);
		assertThat(wrap.completion().complete(null)).isNull();
		CircuitBreaker.Metrics metrics = this.resilience.circuitBreaker(this.server).getMetrics();
		assertThat(metrics.getNumberOfFailedCalls()).isEqualTo(1);
	}

	@Test
	void completeWhenTheUpstreamFailsBeforeTheReplyThenAnsweredAsAGatewayErrorAndCounted() throws IOException {
		McpExchange exchange = call();
		Wrap wrap = (Wrap) this.stage.decide(exchange);

		Throwable outward = wrap.completion().complete(new IOException("Connection reset"));

		assertThat(outward).isNull();
		assertThat(exchange.context().errorCode()).isEqualTo("upstream_failed");
		assertThat(((MockHttpServletResponse) exchange.response()).getStatus()).isEqualTo(502);
		assertThat(this.resilience.circuitBreaker(this.server).getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
		assertThat(this.resilience.bulkhead(this.server).getMetrics().getAvailableConcurrentCalls()).isEqualTo(1);
	}

	private McpExchange call() {
		return TestExchanges.post(this.server, CALL).principal(new McpPrincipal("alice", null, "blue")).build();
	}

	/** One call in flight; a circuit that stays closed for the calls these tests make. */
	private static final class Settings implements UpstreamGuardSettings {

		@Override
		public Duration streamProbeInterval() {
			return Duration.ofSeconds(1);
		}

		@Override
		public Duration silentReplyStreamAfter() {
			return Duration.ofSeconds(1);
		}

		@Override
		public CircuitSettings circuitBreaker() {
			return new CircuitSettings() {

				@Override
				public float failureRateThreshold() {
					return 50;
				}

				@Override
				public int slidingWindowSize() {
					return 10;
				}

				@Override
				public int minimumNumberOfCalls() {
					return 10;
				}

				@Override
				public Duration waitDurationInOpenState() {
					return Duration.ofSeconds(30);
				}

				@Override
				public int permittedCallsInHalfOpenState() {
					return 1;
				}

			};
		}

		@Override
		public BulkheadSettings bulkhead() {
			return () -> 1;
		}

	}

}
