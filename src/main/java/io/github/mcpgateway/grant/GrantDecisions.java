package io.github.mcpgateway.grant;

import java.time.Duration;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.policy.GrantDecision;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.condition.CallerConditionTime;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.StageDecision;

/**
 * What the grant stage's deciding strategies ({@link RequestGrants},
 * {@link SubscriptionGrants}) share around {@link GrantEvaluator}: the caller's condition
 * time ({@link CallerConditionTime}) read before and charged after an evaluation, the
 * condition errors of every decision counted ({@link ConditionErrors}), and a refusal
 * turned into the stage's refusal ({@link GrantErrors}, the deciding grant as the audit
 * reason).
 *
 * <p>
 * Contract: a caller whose time is spent is refused (429
 * {@code condition_budget_exhausted} with {@code Retry-After}) before any condition is
 * evaluated for it; every decision this class settles is counted exactly once.
 */
final class GrantDecisions {

	private final GrantEvaluator grants;

	private final CallerConditionTime callerTime;

	private final ConditionErrors conditionErrors;

	GrantDecisions(GrantEvaluator grants, CallerConditionTime callerTime, ConditionErrors conditionErrors) {
		Assert.notNull(grants, "grants must not be null");
		Assert.notNull(callerTime, "callerTime must not be null");
		Assert.notNull(conditionErrors, "conditionErrors must not be null");
		this.grants = grants;
		this.callerTime = callerTime;
		this.conditionErrors = conditionErrors;
	}

	/** The evaluator the decisions are asked of. */
	GrantEvaluator grants() {
		return this.grants;
	}

	/** Who pays for the request's condition evaluations. */
	static CallerConditionTime.Caller callerOf(McpRequestContext context) {
		return CallerConditionTime.Caller.of(context.principal(), context.server().conditionView());
	}

	/**
	 * The refusal of a caller that has spent its condition time (counted), or
	 * {@code null} when it may evaluate conditions now.
	 */
	@Nullable StageDecision exhausted(CallerConditionTime.Caller caller) {
		Duration spent = this.callerTime.retryAfter(caller);
		return (spent != null) ? StageDecision.refuse(GatewayErrors.CONDITION_BUDGET_EXHAUSTED.withRetryAfter(spent))
				: null;
	}

	/** Makes {@code decision} and charges its time to {@code caller}. */
	GrantDecision charging(CallerConditionTime.Caller caller, Supplier<GrantDecision> decision) {
		return this.callerTime.charging(caller, decision);
	}

	/**
	 * Counts the condition errors of {@code decision} for {@code server}; returns the
	 * stage's refusal when it refuses, {@code null} when it allows.
	 */
	@Nullable StageDecision settle(McpServerPolicy server, GrantDecision decision) {
		this.conditionErrors.count(server, decision);
		return decision.allowed() ? null
				: StageDecision.refuse(GrantErrors.errorOf(decision), GrantOutcome.deniedBy(decision.deniedBy()));
	}

}
