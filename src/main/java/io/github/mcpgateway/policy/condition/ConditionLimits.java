package io.github.mcpgateway.policy.condition;

import java.time.Duration;

/**
 * The budget of one condition evaluation. CEL-Java has no cost estimator, so the bound is
 * enforced while evaluating ({@link EvaluationBudget}): every evaluated node is a step,
 * every string character and list or map element it creates is a unit of allocation, and
 * an evaluation that takes more than {@code maxSteps} steps, creates more than
 * {@code maxAllocation} units or runs past {@code maxTime} stops and counts as false
 * ({@link ConditionResult#BUDGET_EXCEEDED}). This bounds the time and memory of any
 * expression on any input.
 *
 * @param maxSteps the most expression nodes one evaluation may evaluate
 * @param maxAllocation the most string characters and list or map elements one evaluation
 * may create
 * @param maxTime the longest one evaluation may run
 */
public record ConditionLimits(long maxSteps, long maxAllocation, Duration maxTime) {

	/** The defaults of {@code gateway.policy.conditions.*}. */
	public static final ConditionLimits DEFAULTS = new ConditionLimits(100_000, 1_000_000, Duration.ofMillis(50));

	public ConditionLimits {
		if (maxSteps < 1) {
			throw new IllegalArgumentException("gateway.policy.conditions.max-steps must be at least 1");
		}
		if (maxAllocation < 1) {
			throw new IllegalArgumentException("gateway.policy.conditions.max-allocation must be at least 1");
		}
		if (maxTime == null || maxTime.isNegative() || maxTime.isZero()) {
			throw new IllegalArgumentException("gateway.policy.conditions.max-time must be positive");
		}
	}

}
