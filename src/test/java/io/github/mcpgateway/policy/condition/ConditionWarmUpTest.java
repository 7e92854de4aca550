package io.github.mcpgateway.policy.condition;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.jsonrpc.JsonReadLimits;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.support.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A condition's first evaluation is held to the cold time, not to max-time (it runs code
 * the JVM has not warmed), and the policy load's warm-up evaluates every condition first,
 * within its own bound, so that a request meets a warm one. Time is the tests' clock,
 * never measured.
 */
class ConditionWarmUpTest {

	private static final StrictJsonReader JSON = new StrictJsonReader(JsonReadLimits.DEFAULTS, 1024 * 1024);

	private static final ConditionInput.Server SERVER = new ConditionInput.Server("payments", "ledger", null);

	private static final McpPrincipal ALICE = new McpPrincipal("alice", null, "payments");

	@Test
	void aConditionsFirstEvaluationHasTheColdTimeAndLaterOnesMaxTime() {
		Condition condition = ConditionLanguage.compile("arguments.amount < 1000");
		SteppingClock slow = new SteppingClock(Duration.ofMillis(60));

		assertThat(condition.isWarm()).isFalse();
		assertThat(condition.evaluate(call("{\"amount\":5}"), ConditionLimits.DEFAULTS, slow))
			.as("cold: every node 60 ms later, past max-time, within the cold time")
			.isEqualTo(ConditionResult.TRUE);
		assertThat(condition.isWarm()).isTrue();
		assertThat(condition.evaluate(call("{\"amount\":5}"), ConditionLimits.DEFAULTS, slow))
			.isEqualTo(ConditionResult.BUDGET_EXCEEDED);
		ConditionLimits manySteps = new ConditionLimits(1_000_000_000_000L, 1_000_000_000_000L, Duration.ofMillis(50));
		assertThat(ConditionLanguage.compile("arguments.xs.all(x, arguments.xs.all(y, x == y))")
			.evaluate(call("{\"xs\":[" + "1,".repeat(999) + "1]}"), manySteps, slow))
			.as("cold, with steps enough for hours: stopped after the cold time, 17 nodes of 60 ms")
			.isEqualTo(ConditionResult.BUDGET_EXCEEDED);
	}

	@Test
	void theWarmUpEvaluatesEveryConditionSoTheFirstCallIsTimedWarm() {
		List<Condition> conditions = List.of(ConditionLanguage.compile("arguments.amount < 1000"),
				ConditionLanguage.compile("arguments.force != true"),
				ConditionLanguage.compile("principal.team == \"payments\""),
				ConditionLanguage.compile("params.uri.startsWith(\"file:///docs/\")"));
		MutableClock clock = new MutableClock();

		ConditionWarmUp.Result result = new ConditionWarmUp(ConditionLimits.DEFAULTS, clock).warm(conditions);

		assertThat(result.warmed()).isEqualTo(4);
		assertThat(result.conditions()).isEqualTo(4);
		assertThat(conditions).allMatch(Condition::isWarm);
		assertThat(conditions.get(0).fieldsRead()).containsExactly("amount");
		assertThat(conditions.get(3).fieldsRead()).containsExactly("uri");
	}

	@Test
	void theWarmUpStopsAfterItsBoundAndWhatItDidNotReachStaysUntimed() {
		List<Condition> conditions = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			conditions.add(ConditionLanguage.compile("arguments.n == " + i));
		}
		// Each reading 20 ms later: the two seconds are spent after a few evaluations.
		SteppingClock clock = new SteppingClock(Duration.ofMillis(20));

		ConditionWarmUp.Result result = new ConditionWarmUp(ConditionLimits.DEFAULTS, clock).warm(conditions);

		assertThat(result.warmed()).isGreaterThan(0).isLessThan(50);
		assertThat(result.took()).isLessThan(ConditionWarmUp.MAX_TIME.plusSeconds(1));
		Condition unreached = conditions.get(49);
		assertThat(unreached.isWarm()).isFalse();
		assertThat(unreached.evaluate(call("{\"n\":49}"), ConditionLimits.DEFAULTS,
				new SteppingClock(Duration.ofMillis(60))))
			.as("not reached by the warm-up: held to the cold time on a call")
			.isEqualTo(ConditionResult.TRUE);
	}

	private static ConditionInput call(String arguments) {
		return ConditionInput.of(SERVER, ALICE, "tools/call", "t",
				JSON.read(("{\"name\":\"t\",\"arguments\":" + arguments + "}").getBytes(StandardCharsets.UTF_8)));
	}

	/** A clock each reading of which is {@code step} later than the one before. */
	private static final class SteppingClock extends GatewayClock {

		private final long step;

		private long now;

		SteppingClock(Duration step) {
			this.step = step.toNanos();
		}

		@Override
		public Instant instant() {
			return Instant.EPOCH.plusNanos(this.now);
		}

		@Override
		public long nanoTime() {
			this.now += this.step;
			return this.now;
		}

	}

}
