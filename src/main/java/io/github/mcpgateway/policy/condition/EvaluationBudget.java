package io.github.mcpgateway.policy.condition;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

import dev.cel.common.ast.CelExpr;
import dev.cel.runtime.CelEvaluationListener;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.clock.GatewayClock;

/**
 * Stops one evaluation once it has taken its steps, its time or its allocation. CEL calls
 * it after every node it evaluates, with the node's value, and it reads the clock every
 * time (a condition's first evaluation has a longer deadline: {@link Condition}). A
 * {@code matches} costs its string's length times its program's size, and a
 * {@code contains} the product of its strings' lengths, both paid when their operands are
 * known, before they run.
 *
 * <p>
 * <b>Allocation</b> counts what the evaluation creates: the characters of every string
 * and the elements of every list and map a function, operator or literal returns. Reading
 * a variable, a field, a constant, an element or a branch creates nothing, and neither
 * does a comprehension adding to its own result (CEL-Java appends to it in place; the
 * element's literal is counted). Without it a short expression over a bounded body could
 * still build gigabytes ({@code arguments.s + arguments.s + ...}).
 *
 * <p>
 * Once spent it stays spent and throws on every later node: CEL's {@code &&} and
 * {@code ||} absorb an error on one side, so a single throw could be swallowed and the
 * evaluation go on; the root node's own callback ends it for good. One instance per
 * evaluation.
 */
final class EvaluationBudget implements CelEvaluationListener {

	/**
	 * The string-instruction pairs a step stands for in a {@code matches} (RE2J runs
	 * about ten of them in the time of one step).
	 */
	private static final long MATCH_UNITS_PER_STEP = 10;

	/** The character comparisons a step stands for in a {@code contains}. */
	private static final long SEARCH_UNITS_PER_STEP = 1_000;

	/** The variable CEL's macros accumulate their result in. */
	private static final String ACCUMULATOR = "@result";

	private final long maxSteps;

	private final long maxAllocation;

	private final long deadline;

	private long steps;

	private long allocated;

	private boolean spent;

	private final GatewayClock clock;

	private final StringCosts stringCosts;

	/**
	 * The length of each {@code contains}'s string, by call, until its needle is known.
	 */
	private @Nullable Map<Long, Integer> haystacks;

	/**
	 * @param maxTime the time this evaluation may take: {@code limits.maxTime()}, or more
	 * for a condition's first evaluation, which runs code the JVM has not warmed
	 * ({@link Condition})
	 */
	EvaluationBudget(ConditionLimits limits, Duration maxTime, GatewayClock clock, StringCosts stringCosts) {
		this.maxSteps = limits.maxSteps();
		this.maxAllocation = limits.maxAllocation();
		this.clock = clock;
		this.stringCosts = stringCosts;
		this.deadline = clock.nanoTime() + maxTime.toNanos();
	}

	@Override
	public void callback(CelExpr expr, Object result) {
		this.steps++;
		if (!this.stringCosts.isEmpty() && result instanceof CharSequence text) {
			chargeStringFunction(expr.id(), text.length());
		}
		if (creates(expr)) {
			this.allocated += sizeOf(result);
		}
		// The clock is read after every node: a single node may take long (a matches, an
		// == of two whole arguments), and a skipped reading would let the next run on.
		if (this.spent || this.steps > this.maxSteps || this.allocated > this.maxAllocation
				|| this.clock.nanoTime() - this.deadline > 0) {
			this.spent = true;
			throw new Spent();
		}
	}

	/**
	 * Pays, before it runs, for a {@code matches} or {@code contains} whose operand
	 * {@code id} just evaluated to a string of {@code length}: neither function can be
	 * stopped once it has started, and their time grows with their input.
	 */
	private void chargeStringFunction(long id, int length) {
		Integer programSize = this.stringCosts.matched().get(id);
		if (programSize != null) {
			this.steps += (long) length * programSize / MATCH_UNITS_PER_STEP;
		}
		Long haystackOf = this.stringCosts.haystacks().get(id);
		if (haystackOf != null) {
			if (this.haystacks == null) {
				this.haystacks = new HashMap<>(4);
			}
			this.haystacks.put(haystackOf, length);
		}
		Long needleOf = this.stringCosts.needles().get(id);
		if (needleOf != null && this.haystacks != null) {
			Integer haystack = this.haystacks.remove(needleOf);
			if (haystack != null) {
				this.steps += (long) haystack * length / SEARCH_UNITS_PER_STEP;
			}
		}
	}

	boolean spent() {
		return this.spent;
	}

	private static boolean creates(CelExpr expr) {
		return switch (expr.getKind()) {
			case LIST, MAP, STRUCT -> true;
			case CALL -> switch (expr.call().function()) {
				case "_?_:_", "_[_]", "_[?_]" -> false;
				case "_+_" -> !appendsToAccumulator(expr);
				default -> true;
			};
			default -> false;
		};
	}

	private static boolean appendsToAccumulator(CelExpr call) {
		CelExpr first = call.call().args().isEmpty() ? null : call.call().args().get(0);
		return first != null && first.getKind() == CelExpr.ExprKind.Kind.IDENT
				&& ACCUMULATOR.equals(first.ident().name());
	}

	private static long sizeOf(Object value) {
		if (value instanceof CharSequence text) {
			return text.length();
		}
		if (value instanceof Collection<?> collection) {
			return collection.size();
		}
		if (value instanceof Map<?, ?> map) {
			return map.size();
		}
		if (value instanceof com.google.protobuf.ByteString bytes) {
			return bytes.size();
		}
		return 1;
	}

	/** Thrown through CEL's evaluator; carries no stack, it is control flow. */
	static final class Spent extends RuntimeException {

		Spent() {
			super("the condition's evaluation budget is spent", null, false, false);
		}

	}

}
