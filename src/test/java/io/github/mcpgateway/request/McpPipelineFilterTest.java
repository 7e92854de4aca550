package io.github.mcpgateway.request;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.util.unit.DataSize;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.error.RefusalStatus;
import io.github.mcpgateway.jsonrpc.JsonReadLimits;
import io.github.mcpgateway.policy.LivePolicy;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.policy.PolicyParser;
import io.github.mcpgateway.routing.ServerLocator;
import io.github.mcpgateway.support.MutableClock;
import io.github.mcpgateway.support.TestJsonRpc;
import io.github.mcpgateway.transport.SilentReplies;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pipeline filter's orchestration, with fake stages that record what they are asked:
 * the order, the short-circuits, the completions and the deferred charges.
 */
class McpPipelineFilterTest {

	private static final Policy POLICY = new PolicyParser().parse("""
			servers:
			  - namespace: test
			    name: echo
			    upstream: http://upstream.example/mcp
			    path: /mcp/test/echo
			    grants:
			      - tools: ["*"]
			""".getBytes(StandardCharsets.UTF_8), "test.yaml", Instant.EPOCH);

	private final List<String> events = new ArrayList<>();

	private final MockHttpServletResponse response = new MockHttpServletResponse();

	private final AtomicReference<ServletRequest> dispatched = new AtomicReference<>();

	private final FilterChain chain = (request, response) -> {
		this.events.add("chain");
		this.dispatched.set(request);
	};

	@Test
	void doFilterWhenEveryStageGoesOnThenAsksEachInOrderAndDispatches() throws Exception {
		MockHttpServletRequest request = post();

		filter(stage("a", proceed()), stage("b", proceed()), stage("c", proceed())).doFilter(request, this.response,
				this.chain);

		assertThat(this.events).containsExactly("a", "b", "c", "chain");
		assertThat(McpRequestContext.require(request).decision()).isEqualTo(Decision.ALLOWED);
	}

	@Test
	void doFilterWhenAStageRefusesThenLaterStagesAreNotAskedNothingIsDispatchedAndTheRefusalIsAnswered()
			throws Exception {
		MockHttpServletRequest request = post();

		filter(stage("a", proceed()), stage("b", (exchange) -> StageDecision.refuse(GatewayErrors.TOOL_NOT_GRANTED)),
				stage("c", proceed()))
			.doFilter(request, this.response, this.chain);

		assertThat(this.events).containsExactly("a", "b");
		assertThat(this.dispatched).hasNullValue();
		assertThat(this.response.getStatus()).isEqualTo(403);
		assertThat(this.response.getContentAsString()).contains("tool_not_granted");
		McpRequestContext context = McpRequestContext.require(request);
		assertThat(context.decision()).isEqualTo(Decision.DENIED);
		assertThat(context.errorCode()).isEqualTo("tool_not_granted");
	}

	@Test
	void doFilterWhenAStageAnsweredThenLaterStagesAreNotAskedAndNothingIsDispatched() throws Exception {
		MockHttpServletRequest request = post();

		filter(stage("a", (exchange) -> StageDecision.answered()), stage("b", proceed())).doFilter(request,
				this.response, this.chain);

		assertThat(this.events).containsExactly("a");
		assertThat(this.dispatched).hasNullValue();
		assertThat(McpRequestContext.require(request).decision()).isEqualTo(Decision.ALLOWED);
	}

	@Test
	void doFilterWhenAStageDoesNotApplyThenItIsNotAsked() throws Exception {
		McpStage skipped = new FakeStage("skipped", proceed()) {
			@Override
			public boolean appliesTo(McpExchange exchange) {
				return false;
			}
		};

		filter(stage("a", proceed()), skipped, stage("c", proceed())).doFilter(post(), this.response, this.chain);

		assertThat(this.events).containsExactly("a", "c", "chain");
	}

	@Test
	void doFilterWhenStagesWrapThenTheChainGetsTheWrappedRequestAndCompletionsRunAfterItInnermostFirst()
			throws Exception {
		AtomicReference<ServletRequest> wrapped = new AtomicReference<>();
		McpStage outer = stage("outer", (exchange) -> StageDecision.around((failure) -> {
			this.events.add("complete outer");
			return failure;
		}));
		McpStage inner = stage("inner", (exchange) -> {
			wrapped.set(new HttpServletRequestWrapper(exchange.request()));
			return StageDecision.wrap((HttpServletRequestWrapper) wrapped.get(), null, (failure) -> {
				this.events.add("complete inner");
				return failure;
			});
		});

		filter(outer, inner, stage("last", proceed())).doFilter(post(), this.response, this.chain);

		assertThat(this.events).containsExactly("outer", "inner", "last", "chain", "complete inner", "complete outer");
		assertThat(this.dispatched.get()).isSameAs(wrapped.get());
	}

	@Test
	void doFilterWhenALaterStageRefusesThenTheCompletionsOfEarlierStagesStillRun() throws Exception {
		McpStage wrapping = stage("wrapping", (exchange) -> StageDecision.around((failure) -> {
			this.events.add("completed");
			return failure;
		}));

		filter(wrapping, stage("refusing", (exchange) -> StageDecision.refuse(GatewayErrors.TOOL_NOT_GRANTED)))
			.doFilter(post(), this.response, this.chain);

		assertThat(this.events).containsExactly("wrapping", "refusing", "completed");
	}

	@Test
	void doFilterWhenTheChainFailsThenTheCompletionsSeeTheFailureAndWhatNoneAnswersIsAnInternalError()
			throws Exception {
		MockHttpServletRequest request = post();
		McpStage wrapping = stage("wrapping", (exchange) -> StageDecision.around((failure) -> {
			this.events.add("completed with " + failure.getClass().getSimpleName());
			return failure;
		}));
		FilterChain failing = (req, res) -> {
			throw new IllegalStateException("proxy failed");
		};

		filter(wrapping).doFilter(request, this.response, failing);

		assertThat(this.events).containsExactly("wrapping", "completed with IllegalStateException");
		assertThat(this.response.getStatus()).isEqualTo(500);
		assertThat(McpRequestContext.require(request).errorCode()).isEqualTo("internal_error");
	}

	@Test
	void doFilterWhenACompletionAnswersTheFailureThenItGoesNoFurtherOutward() throws Exception {
		MockHttpServletRequest request = post();
		McpStage outer = stage("outer", (exchange) -> StageDecision.around((failure) -> {
			this.events.add("outer saw " + failure);
			return failure;
		}));
		McpStage answering = stage("answering", (exchange) -> StageDecision.around((failure) -> null));
		FilterChain failing = (req, res) -> {
			throw new IllegalStateException("proxy failed");
		};

		filter(outer, answering).doFilter(request, this.response, failing);

		assertThat(this.events).containsExactly("outer", "answering", "outer saw null");
		assertThat(this.response.getStatus()).isEqualTo(200);
	}

	@Test
	void doFilterWhenAChargeIsDeferredAndNoStageCommitsThenItIsChargedOnceAfterEveryStageBeforeDispatch()
			throws Exception {
		filter(stage("quota", (exchange) -> StageDecision.deferCharge(charge(null))), stage("later", proceed()))
			.doFilter(post(), this.response, this.chain);

		assertThat(this.events).containsExactly("quota", "later", "charged", "chain");
	}

	@Test
	void doFilterWhenAChargeIsDeferredAndALaterStageCommitsThenItIsChargedOnceBeforeTheCommittedRun() throws Exception {
		McpStage committing = stage("commit", (exchange) -> StageDecision.commit(() -> {
			this.events.add("run");
			return StageDecision.proceed();
		}, () -> this.events.add("withdrawn")));

		filter(stage("quota", (exchange) -> StageDecision.deferCharge(charge(null))), committing,
				stage("later", proceed()))
			.doFilter(post(), this.response, this.chain);

		assertThat(this.events).containsExactly("quota", "commit", "charged", "run", "later", "chain");
	}

	@Test
	void doFilterWhenTheDeferredChargeRefusesOnCommitThenTheStageWithdrawsAndNothingIsDispatched() throws Exception {
		MockHttpServletRequest request = post();
		McpStage committing = stage("commit", (exchange) -> StageDecision.commit(() -> {
			this.events.add("run");
			return StageDecision.proceed();
		}, () -> this.events.add("withdrawn")));

		filter(stage("quota", (exchange) -> StageDecision.deferCharge(charge(rateLimited()))), committing,
				stage("later", proceed()))
			.doFilter(request, this.response, this.chain);

		assertThat(this.events).containsExactly("quota", "commit", "charged", "withdrawn");
		assertThat(this.dispatched).hasNullValue();
		assertThat(this.response.getStatus()).isEqualTo(429);
		assertThat(McpRequestContext.require(request).errorCode()).isEqualTo("rate_limited");
	}

	@Test
	void doFilterWhenTheDeferredChargeRefusesBeforeDispatchThenNothingIsDispatched() throws Exception {
		MockHttpServletRequest request = post();

		filter(stage("quota", (exchange) -> StageDecision.deferCharge(charge(rateLimited()))),
				stage("later", proceed()))
			.doFilter(request, this.response, this.chain);

		assertThat(this.events).containsExactly("quota", "later", "charged");
		assertThat(this.dispatched).hasNullValue();
		assertThat(this.response.getStatus()).isEqualTo(429);
		assertThat(McpRequestContext.require(request).decision()).isEqualTo(Decision.REFUSED);
	}

	@Test
	void doFilterWhenALaterStageAnswersThenTheDeferredChargeIsNeverRun() throws Exception {
		filter(stage("quota", (exchange) -> StageDecision.deferCharge(charge(null))),
				stage("replay", (exchange) -> StageDecision.answered()))
			.doFilter(post(), this.response, this.chain);

		assertThat(this.events).containsExactly("quota", "replay");
	}

	@Test
	void doFilterWhenNoServerIsOnThePathThenPassesThroughWithoutAskingAStage() throws Exception {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/mcp/test/nowhere");

		filter(stage("a", proceed())).doFilter(request, this.response, this.chain);

		assertThat(this.events).containsExactly("chain");
		assertThat(McpRequestContext.find(request)).isNull();
	}

	private McpPipelineFilter filter(McpStage... stages) {
		LivePolicy live = new LivePolicy() {

			@Override
			public Policy current() {
				return POLICY;
			}

			@Override
			public boolean isLoaded() {
				return true;
			}

		};
		return new McpPipelineFilter(new ServerLocator(live),
				new RequestProperties(DataSize.ofMegabytes(1), Duration.ofSeconds(10), JsonReadLimits.DEFAULTS,
						RefusalStatus.HTTP),
				TestJsonRpc.parser(), List.of(stages),
				new Refusals(new GatewayErrorRenderer(JsonMapper.builder().build())), List.of(), List.of(),
				new MutableClock(), PipelineObserver.NONE, SilentReplies.OFF);
	}

	private static MockHttpServletRequest post() {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/mcp/test/echo");
		request.setContentType("application/json");
		request.addHeader("Accept", "application/json, text/event-stream");
		request.setContent("""
				{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}"""
			.getBytes(StandardCharsets.UTF_8));
		return request;
	}

	private McpStage stage(String name, Function<McpExchange, StageDecision> decision) {
		return new FakeStage(name, decision);
	}

	private static Function<McpExchange, StageDecision> proceed() {
		return (exchange) -> StageDecision.proceed();
	}

	private static StageDecision.Refuse rateLimited() {
		return (StageDecision.Refuse) StageDecision.refuse(GatewayErrors.RATE_LIMITED);
	}

	private DeferredCharge charge(StageDecision.Refuse refusal) {
		return () -> {
			this.events.add("charged");
			return refusal;
		};
	}

	/** A stage that records that it was asked, then decides as told. */
	private class FakeStage implements McpStage {

		private final String name;

		private final Function<McpExchange, StageDecision> decision;

		FakeStage(String name, Function<McpExchange, StageDecision> decision) {
			this.name = name;
			this.decision = decision;
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public StageDecision decide(McpExchange exchange) throws IOException {
			McpPipelineFilterTest.this.events.add(this.name);
			return this.decision.apply(exchange);
		}

	}

}
