package io.github.mcpgateway.policy.condition;

import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.ast.CelExpr;
import dev.cel.runtime.CelEvaluationListener;
import dev.cel.runtime.CelUnknownSet;
import org.jspecify.annotations.Nullable;

/**
 * Makes a comparison of values of different types an evaluation error. CEL's equality is
 * heterogeneous: {@code "true" == true} is false, not an error, so
 * {@code arguments.force != true} is true for a call that sends {@code "true"}, {@code 1}
 * or {@code [true]}, and "errors count as false" does not cover it. Here an {@code ==},
 * {@code !=} or {@code in} whose operands the checker could not type
 * ({@link Comparisons}) is checked when its operands are known, before it runs: operands
 * of different kinds are {@link Incomparable}, which the condition reports as
 * {@link ConditionResult#WRONG_TYPE} (and so does not allow). Ordering ({@code <},
 * {@code >=}, ...) needs no check: CEL has no overload across kinds and errs already.
 *
 * <p>
 * The kinds: {@code null}, bool, number ({@code int}, {@code uint} and {@code double} are
 * one kind, as the runtime compares them by value), string, bytes, list, map, and any
 * other value by its class. {@code null} compares with anything
 * ({@code arguments.x != null} stays the test that a value is there). Two lists of one
 * length are compared element by element, two maps member by member on the keys they
 * share, so {@code arguments.flags != [true]} errs for {@code ["true"]}. An {@code in}
 * compares its element with every element of the list, or every key of the map. The check
 * reads what the comparison itself reads, so it is linear in the values compared, as the
 * comparison is.
 *
 * <p>
 * CEL evaluates a call's operands left to right, each just before the call: the left
 * operand's value is kept until the right one is known. Not thread-safe: one instance per
 * evaluation.
 */
final class StrictComparisons implements CelEvaluationListener {

	private enum Kind {

		NULL, BOOL, NUMBER, STRING, BYTES, LIST, MAP, OTHER

	}

	private final Comparisons comparisons;

	/** The left operand of each checked comparison under evaluation, by its id. */
	private final Map<Long, Object> lefts = new HashMap<>(4);

	StrictComparisons(Comparisons comparisons) {
		this.comparisons = comparisons;
	}

	@Override
	public void callback(CelExpr expr, Object value) {
		Comparisons.Operand operand = this.comparisons.operands().get(expr.id());
		if (operand == null) {
			return;
		}
		if (operand.left()) {
			this.lefts.put(operand.comparison(), value);
			return;
		}
		Object left = this.lefts.remove(operand.comparison());
		if (left != null && !(operand.membership() ? member(left, value) : comparable(left, value))) {
			throw new Incomparable();
		}
	}

	/** Whether {@code element} may be looked for in {@code container}. */
	private static boolean member(Object element, Object container) {
		if (container instanceof List<?> list) {
			for (Object each : list) {
				if (!comparable(element, each)) {
					return false;
				}
			}
		}
		else if (container instanceof Map<?, ?> map) {
			for (Object key : map.keySet()) {
				if (!comparable(element, key)) {
					return false;
				}
			}
		}
		return true;
	}

	/** Whether {@code a} and {@code b} are of one kind, all the way down. */
	static boolean comparable(@Nullable Object a, @Nullable Object b) {
		if (a == null || b == null || a instanceof CelUnknownSet || b instanceof CelUnknownSet) {
			return true;
		}
		Kind kind = kindOf(a);
		Kind other = kindOf(b);
		if (kind == Kind.NULL || other == Kind.NULL) {
			return true;
		}
		if (kind != other) {
			return false;
		}
		return switch (kind) {
			case LIST -> elementsComparable((List<?>) a, (List<?>) b);
			case MAP -> membersComparable((Map<?, ?>) a, (Map<?, ?>) b);
			case OTHER -> a.getClass() == b.getClass();
			default -> true;
		};
	}

	private static boolean elementsComparable(List<?> a, List<?> b) {
		if (a.size() != b.size()) {
			// Unequal whatever their elements are.
			return true;
		}
		for (int i = 0; i < a.size(); i++) {
			if (!comparable(a.get(i), b.get(i))) {
				return false;
			}
		}
		return true;
	}

	private static boolean membersComparable(Map<?, ?> a, Map<?, ?> b) {
		Iterator<?> keysOfA = a.keySet().iterator();
		Iterator<?> keysOfB = b.keySet().iterator();
		if (keysOfA.hasNext() && keysOfB.hasNext() && !comparable(keysOfA.next(), keysOfB.next())) {
			return false;
		}
		for (Object key : a.keySet()) {
			if (b.containsKey(key) && !comparable(a.get(key), b.get(key))) {
				return false;
			}
		}
		return true;
	}

	private static Kind kindOf(Object value) {
		if (value instanceof dev.cel.common.values.NullValue || value instanceof com.google.protobuf.NullValue) {
			return Kind.NULL;
		}
		if (value instanceof Boolean) {
			return Kind.BOOL;
		}
		if (value instanceof Long || value instanceof Double || value instanceof UnsignedLong
				|| value instanceof Integer || value instanceof Float) {
			return Kind.NUMBER;
		}
		if (value instanceof CharSequence) {
			return Kind.STRING;
		}
		if (value instanceof com.google.protobuf.ByteString || value instanceof dev.cel.common.values.CelByteString) {
			return Kind.BYTES;
		}
		if (value instanceof List<?>) {
			return Kind.LIST;
		}
		return (value instanceof Map<?, ?>) ? Kind.MAP : Kind.OTHER;
	}

	/** A comparison of values of different kinds; no stack, it is a refusal. */
	static final class Incomparable extends RuntimeException {

		Incomparable() {
			super("a comparison of values of different types", null, false, false);
		}

	}

}
