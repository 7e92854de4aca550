package io.github.mcpgateway.policy.condition;

import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.support.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each caller's condition time: charged when an evaluation ends, refused while negative,
 * refilled at its rate, one human across its agents, and never another caller's. Time is
 * the tests' clock: an "evaluation" advances it.
 */
class CallerConditionTimeTest {

	private static final ConditionInput.Server SERVER = new ConditionInput.Server("payments", "ledger", null);

	private final MutableClock clock = new MutableClock();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final CallerConditionTime time = new CallerConditionTime(Duration.ofMillis(100), Duration.ofSeconds(1),
			this.clock, this.registry);

	private final CallerConditionTime.Caller mallory = CallerConditionTime.Caller
		.of(new McpPrincipal("mallory", "agent-1", null), SERVER);

	private final CallerConditionTime.Caller bob = CallerConditionTime.Caller.of(new McpPrincipal("bob", null, null),
			SERVER);

	@Test
	void aCallerThatSpentItsBurstIsRefusedUntilItsBalanceIsPositiveAgainAndOthersAreNot() {
		assertThat(this.time.retryAfter(this.mallory)).as("a new caller has its whole burst").isNull();

		spend(this.mallory, Duration.ofMillis(1_500));

		Duration wait = this.time.retryAfter(this.mallory);
		assertThat(wait).as("1.5 s spent of 1 s: 0.5 s in debt at 100 ms a second").isEqualTo(Duration.ofMillis(5_000));
		assertThat(this.time.retryAfter(this.bob)).isNull();
		this.clock.advance(Duration.ofMillis(4_999));
		assertThat(this.time.retryAfter(this.mallory)).isNotNull();
		this.clock.advance(Duration.ofMillis(2));
		assertThat(this.time.retryAfter(this.mallory)).isNull();
		assertThat(this.registry.get(CallerConditionTime.REFUSALS).counter().count()).isEqualTo(2);
		assertThat(this.registry.get(CallerConditionTime.TIME).counter().count()).isEqualTo(1.5);
	}

	@Test
	void oneHumanIsOneCallerAcrossItsAgentsAndAServerWithoutPrincipalsIsOne() {
		spend(this.mallory, Duration.ofMillis(1_200));

		assertThat(this.time
			.retryAfter(CallerConditionTime.Caller.of(new McpPrincipal("mallory", "agent-2", "x"), SERVER)))
			.as("another agent of the same human")
			.isNotNull();
		assertThat(CallerConditionTime.Caller.of(null, SERVER))
			.isNotEqualTo(CallerConditionTime.Caller.of(new McpPrincipal("payments", null, null), SERVER));
	}

	@Test
	void aCallersWholeDebtIsKeptDownToTenBursts() {
		spend(this.mallory, Duration.ofMillis(3_500));
		assertThat(this.time.retryAfter(this.mallory)).as("2.5 s in debt, all kept: 25 s to pay back")
			.isEqualTo(Duration.ofMillis(25_000));

		spend(this.mallory, Duration.ofSeconds(30));

		assertThat(this.time.retryAfter(this.mallory)).as("debt of 10 s at most: 10 s refills in 100 s")
			.isEqualTo(Duration.ofMillis(100_000));
	}

	private void spend(CallerConditionTime.Caller caller, Duration evaluation) {
		this.time.charging(caller, () -> {
			this.clock.advance(evaluation);
			return null;
		});
	}

}
