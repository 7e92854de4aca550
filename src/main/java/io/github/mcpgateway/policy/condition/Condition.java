package io.github.mcpgateway.policy.condition;

import java.util.Set;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.cel.common.CelErrorCode;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelUnknownSet;

import io.github.mcpgateway.clock.GatewayClock;

/**
 * A grant's condition ({@code when}): a CEL expression compiled and type-checked once,
 * when the policy is read ({@link ConditionLanguage#compile}). Immutable and safe to
 * share between request threads.
 */
public final class Condition {

	private final String source;

	private final CelRuntime.Program program;

	private final Set<String> reads;

	private final StringCosts stringCosts;

	Condition(String source, CelRuntime.Program program, Set<String> reads, StringCosts stringCosts) {
		this.source = source;
		this.program = program;
		this.reads = Set.copyOf(reads);
		this.stringCosts = stringCosts;
	}

	/** The expression as the policy file writes it. */
	@JsonValue
	public String source() {
		return this.source;
	}

	/**
	 * Whether the expression reads {@code arguments} or {@code params}: what a client
	 * sends with the call. Such a condition is decided at call time only; one that does
	 * not is decided at list time too (a {@code tools/list} reply shows the tool only
	 * when it is true).
	 */
	public boolean readsCall() {
		return this.reads.contains("arguments") || this.reads.contains("params");
	}

	/**
	 * Whether the expression reads the environment's {@code variable} ({@code principal},
	 * {@code arguments}, ...), other than as the name of a comprehension's own variable.
	 */
	public boolean reads(String variable) {
		return this.reads.contains(variable);
	}

	/**
	 * Evaluates the condition on {@code input} within {@code limits}, its time read from
	 * {@code clock}. Never throws: an evaluation error is a result that does not allow.
	 */
	public ConditionResult evaluate(ConditionInput input, ConditionLimits limits, GatewayClock clock) {
		EvaluationBudget budget = new EvaluationBudget(limits, clock, this.stringCosts);
		try {
			Object value = this.program.trace(input, budget);
			if (value instanceof Boolean allowed) {
				return allowed ? ConditionResult.TRUE : ConditionResult.FALSE;
			}
			// An unknown is what the interpreter gives for a variable without a value (no
			// verified principal).
			return (value instanceof CelUnknownSet) ? ConditionResult.MISSING_FIELD : ConditionResult.NOT_BOOLEAN;
		}
		catch (CelEvaluationException ex) {
			return budget.spent() ? ConditionResult.BUDGET_EXCEEDED : causedBy(ex, JsonValues.Unrepresentable.class)
					? ConditionResult.WRONG_TYPE : resultOf(ex.getErrorCode());
		}
		catch (EvaluationBudget.Spent ex) {
			return ConditionResult.BUDGET_EXCEEDED;
		}
		catch (JsonValues.Unrepresentable ex) {
			return ConditionResult.WRONG_TYPE;
		}
		catch (RuntimeException ex) {
			// CEL-Java documents no other exception; should one escape, it refuses.
			return budget.spent() ? ConditionResult.BUDGET_EXCEEDED : ConditionResult.FAILED;
		}
	}

	private static boolean causedBy(Throwable thrown, Class<? extends Throwable> type) {
		for (Throwable cause = thrown; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (type.isInstance(cause)) {
				return true;
			}
		}
		return false;
	}

	private static ConditionResult resultOf(CelErrorCode code) {
		return switch (code) {
			case ATTRIBUTE_NOT_FOUND -> ConditionResult.MISSING_FIELD;
			case OVERLOAD_NOT_FOUND, AMBIGUOUS_OVERLOAD, TYPE_NOT_FOUND, BAD_FORMAT, INVALID_ARGUMENT ->
				ConditionResult.WRONG_TYPE;
			case ITERATION_BUDGET_EXCEEDED -> ConditionResult.BUDGET_EXCEEDED;
			default -> ConditionResult.FAILED;
		};
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof Condition condition && this.source.equals(condition.source);
	}

	@Override
	public int hashCode() {
		return this.source.hashCode();
	}

	@Override
	public String toString() {
		return this.source;
	}

}
