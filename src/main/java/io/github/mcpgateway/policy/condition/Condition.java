package io.github.mcpgateway.policy.condition;

import java.time.Duration;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.cel.common.CelErrorCode;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelEvaluationListener;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelUnknownSet;

import io.github.mcpgateway.clock.GatewayClock;

/**
 * A grant's condition ({@code when}): a CEL expression compiled and type-checked once,
 * when the policy is read ({@link ConditionLanguage#compile}), and warmed when it is
 * loaded ({@link ConditionWarmUp}). Safe to share between request threads: immutable but
 * for whether it is warm.
 *
 * <p>
 * <b>Warm.</b> The first evaluation of an expression in a process runs code the JVM has
 * not loaded or compiled yet, and can take longer than {@code max-time} on a loaded
 * machine although it is cheap. A refusal must not depend on that: an evaluation of a
 * condition that has not completed one yet is bounded by its steps and allocation, which
 * bound it on any input, and by {@link #COLD_TIME} (or {@code max-time} if longer) rather
 * than {@code max-time}, so that even a {@code max-steps} set very high cannot make it
 * run long. The policy load evaluates every condition first, off the request path, so a
 * request meets a warm one.
 */
public final class Condition {

	/**
	 * The deadline of a condition's first evaluation, unless {@code max-time} is longer.
	 */
	public static final Duration COLD_TIME = Duration.ofSeconds(1);

	private final String source;

	private final CelRuntime.Program program;

	private final Set<String> reads;

	private final StringCosts stringCosts;

	private final Comparisons comparisons;

	private final Set<String> fieldsRead;

	/** Whether an evaluation has completed: later ones are held to {@code max-time}. */
	private volatile boolean warm;

	Condition(String source, CelRuntime.Program program, Set<String> reads, StringCosts stringCosts,
			Comparisons comparisons, Set<String> fieldsRead) {
		this.source = source;
		this.program = program;
		this.reads = Set.copyOf(reads);
		this.stringCosts = stringCosts;
		this.comparisons = comparisons;
		this.fieldsRead = Set.copyOf(fieldsRead);
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
	 * The members the expression reads directly of {@code arguments} or {@code params}
	 * ({@code amount} of {@code arguments.amount}): what a warm-up input sets.
	 */
	Set<String> fieldsRead() {
		return this.fieldsRead;
	}

	/**
	 * Whether the expression denies by a comparison with a value of the call: an
	 * {@code !=}, or an {@code ==} or {@code in} under {@code !}, with an operand from
	 * {@code arguments} or {@code params} ({@code arguments.force != true}). A value of
	 * another type makes such a comparison an error, and the condition does not allow
	 * ({@link StrictComparisons}); {@code validate} names these conditions.
	 */
	public boolean deniesByComparison() {
		return this.comparisons.negated();
	}

	/**
	 * Whether an evaluation has completed, so that the next ones are held to
	 * {@code max-time}.
	 */
	public boolean isWarm() {
		return this.warm;
	}

	/**
	 * Evaluates the condition on {@code input} within {@code limits} ({@link #COLD_TIME}
	 * instead of a shorter {@code max-time} until the condition is warm), its time read
	 * from {@code clock}. Never throws: an evaluation error is a result that does not
	 * allow.
	 */
	public ConditionResult evaluate(ConditionInput input, ConditionLimits limits, GatewayClock clock) {
		Duration maxTime = (this.warm || limits.maxTime().compareTo(COLD_TIME) > 0) ? limits.maxTime() : COLD_TIME;
		ConditionResult result = evaluate(input, limits, maxTime, clock);
		this.warm = true;
		return result;
	}

	private ConditionResult evaluate(ConditionInput input, ConditionLimits limits, Duration maxTime,
			GatewayClock clock) {
		EvaluationBudget budget = new EvaluationBudget(limits, maxTime, clock, this.stringCosts);
		CelEvaluationListener listener = budget;
		if (!this.comparisons.isEmpty()) {
			StrictComparisons strict = new StrictComparisons(this.comparisons);
			listener = (expr, value) -> {
				budget.callback(expr, value);
				strict.callback(expr, value);
			};
		}
		try {
			Object value = this.program.trace(input, listener);
			if (value instanceof Boolean allowed) {
				return allowed ? ConditionResult.TRUE : ConditionResult.FALSE;
			}
			// An unknown is what the interpreter gives for a variable without a value (no
			// verified principal).
			return (value instanceof CelUnknownSet) ? ConditionResult.MISSING_FIELD : ConditionResult.NOT_BOOLEAN;
		}
		catch (CelEvaluationException ex) {
			if (budget.spent()) {
				return ConditionResult.BUDGET_EXCEEDED;
			}
			return (causedBy(ex, JsonValues.Unrepresentable.class)
					|| causedBy(ex, StrictComparisons.Incomparable.class)) ? ConditionResult.WRONG_TYPE
							: resultOf(ex.getErrorCode());
		}
		catch (EvaluationBudget.Spent ex) {
			return ConditionResult.BUDGET_EXCEEDED;
		}
		catch (JsonValues.Unrepresentable | StrictComparisons.Incomparable ex) {
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
