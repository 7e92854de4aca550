package io.github.mcpgateway.policy;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.convention.TestBean;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a condition costs, from outside (issue 36): a call is not refused because its
 * condition met the JVM cold, and a caller whose arguments make conditions expensive
 * spends its own evaluation time, not another caller's. The gateway's clock is replaced
 * by one that, once armed, makes the next condition node the gateway times 600 ms long,
 * past {@code max-time} (500 ms here, so that a pause of the machine does not decide), as
 * cold code on a loaded machine does; each caller may spend 1 ms of condition time, and
 * gains 1 µs a second.
 */
@TestPropertySource(properties = { "gateway.policy.conditions.max-time=500ms",
		"gateway.policy.conditions.caller-time-per-second=1us", "gateway.policy.conditions.caller-burst=1ms" })
class ConditionCostIntegrationTest extends GatewayIntegrationTest {

	private static final String COST = "/mcp/test/cost";

	@TestBean(name = "clock", methodName = "coldClock")
	private GatewayClock clock;

	@Autowired
	private LivePolicy livePolicy;

	static GatewayClock coldClock() {
		return new ColdConditionClock();
	}

	@Test
	void theFirstCallAfterALoadIsNotRefusedBecauseItsConditionWasCold() {
		((ColdConditionClock) this.clock).arm();
		write("""
				      - name: small
				        tools: [pay]
				        when: 'arguments.amount < 1000'
				""");
		int before = upstreamCalls("pay");

		HttpResponse<String> first = post(COST, TestJwts.jwt().human("carol").sign(),
				jsonRpc(1, "tools/call", "{\"name\":\"pay\",\"arguments\":{\"amount\":5}}"));

		assertThat(first.body()).as("not refused budget_exceeded").doesNotContain("\"error\"").contains("\"result\"");
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(upstreamCalls("pay")).isEqualTo(before + 1);
		assertThat(((ColdConditionClock) this.clock).armed()).as("the cold node was the warm-up's, at load").isFalse();
	}

	@Test
	void aCallerThatSpentItsConditionTimeIsRefusedWhileAnotherIsServed() {
		write("""
				      - name: heavy
				        tools: [heavy]
				        when: arguments.xs.all(x, arguments.xs.all(y, x == y))
				""");
		String mallory = TestJwts.jwt().human("mallory").agent("agent-1").sign();
		String malloryOtherAgent = TestJwts.jwt().human("mallory").agent("agent-2").sign();
		String bob = TestJwts.jwt().human("bob").sign();
		String expensive = jsonRpc(1, "tools/call",
				"{\"name\":\"heavy\",\"arguments\":{\"xs\":[" + "1,".repeat(999) + "1]}}");
		String cheap = jsonRpc(2, "tools/call", "{\"name\":\"heavy\",\"arguments\":{\"xs\":[1,1]}}");
		int before = upstreamCalls("heavy");

		HttpResponse<String> spent = post(COST, mallory, expensive);
		HttpResponse<String> refused = post(COST, malloryOtherAgent, cheap);
		HttpResponse<String> served = post(COST, bob, cheap);

		assertThat(spent.body()).as("10^6 comparisons: past the steps, and past 1 ms")
			.contains("tool_arguments_denied");
		assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
		assertThat(refused.body()).contains("\"code\":\"condition_budget_exhausted\"");
		assertThat(refused.headers().firstValue("Retry-After").map(Long::parseLong)).hasValueSatisfying(
				(seconds) -> assertThat(seconds).as("the whole debt, at most ten 1 ms bursts, at 1 µs a second")
					.isBetween(1L, 10_001L));
		assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
		assertThat(upstreamCalls("heavy")).as("bob's call only").isEqualTo(before + 1);
	}

	private void write(String grants) {
		policy.write(policy.standard() + """
				  - namespace: test
				    name: cost
				    uid: %s
				    upstream: %s
				    path: %s
				    grants:
				""".formatted("uid-cost-" + UUID.randomUUID(), upstream.url("/cost"), COST) + grants);
		this.policyReloader.reloadNow();
		assertThat(this.livePolicy.lastReload().succeeded()).as(this.livePolicy.lastReload().error()).isTrue();
	}

	private static int upstreamCalls(String tool) {
		return (int) upstream.received()
			.stream()
			.filter((received) -> received.uri().startsWith("/cost")
					&& received.bodyText().contains("\"name\":\"" + tool + "\""))
			.count();
	}

	/**
	 * The machine's clock, except that once {@link #arm armed} the next reading a
	 * condition's budget takes after a node is 600 ms later: the first node the gateway
	 * times after a load is as slow as cold code on a loaded machine, past
	 * {@code max-time}.
	 */
	static final class ColdConditionClock extends GatewayClock {

		private static final long COLD_NODE = Duration.ofMillis(600).toNanos();

		private volatile boolean armed;

		private volatile long offset;

		void arm() {
			this.armed = true;
		}

		boolean armed() {
			return this.armed;
		}

		@Override
		public Instant instant() {
			return GatewayClock.system().instant().plusNanos(this.offset);
		}

		@Override
		public long nanoTime() {
			if (this.armed && readByConditionBudget()) {
				synchronized (this) {
					if (this.armed) {
						this.offset += COLD_NODE;
						this.armed = false;
					}
				}
			}
			return GatewayClock.system().nanoTime() + this.offset;
		}

		private static boolean readByConditionBudget() {
			return StackWalker.getInstance()
				.walk((frames) -> frames.anyMatch(
						(frame) -> frame.getClassName().equals("io.github.mcpgateway.policy.condition.EvaluationBudget")
								&& frame.getMethodName().equals("callback")));
		}

	}

}
