package io.github.mcpgateway.policy.condition;

import java.util.Collection;
import java.util.Map;
import java.util.Set;

import dev.cel.common.ast.CelExpr;
import dev.cel.runtime.CelEvaluationListener;

import io.github.mcpgateway.clock.GatewayClock;

/**
 * Stops one evaluation once it has taken its steps, its time or its allocation. CEL calls
 * it after every node it evaluates, with the node's value.
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

	/** How many steps pass between two reads of the clock. */
	private static final int CLOCK_EVERY = 16;

	/** The variable CEL's macros accumulate their result in. */
	private static final String ACCUMULATOR = "@result";

	private final long maxSteps;

	private final long maxAllocation;

	private final long deadline;

	private long steps;

	private long allocated;

	private boolean spent;

	private final GatewayClock clock;

	/** The expressions whose strings a {@code matches} is about to run on. */
	private final Set<Long> matchedStrings;

	EvaluationBudget(ConditionLimits limits, GatewayClock clock, Set<Long> matchedStrings) {
		this.maxSteps = limits.maxSteps();
		this.maxAllocation = limits.maxAllocation();
		this.clock = clock;
		this.matchedStrings = matchedStrings;
		this.deadline = clock.nanoTime() + limits.maxTime().toNanos();
	}

	@Override
	public void callback(CelExpr expr, Object result) {
		this.steps++;
		if (!this.matchedStrings.isEmpty() && result instanceof CharSequence text
				&& this.matchedStrings.contains(expr.id())) {
			// A regular expression runs in time linear in its input, and cannot be
			// stopped once started: its input is paid for before, a step a character.
			this.steps += text.length();
		}
		if (creates(expr)) {
			this.allocated += sizeOf(result);
		}
		if (this.spent || this.steps > this.maxSteps || this.allocated > this.maxAllocation
				|| (this.steps % CLOCK_EVERY == 0 && this.clock.nanoTime() - this.deadline > 0)) {
			this.spent = true;
			throw new Spent();
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
