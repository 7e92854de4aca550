package io.github.mcpgateway.policy.condition;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;

/**
 * The comparisons of one expression whose operands the type checker could not type: an
 * {@code ==}, {@code !=} or {@code in} with an operand of type {@code dyn} (a value of
 * the call, {@code arguments.force}) or of a list or map of {@code dyn}. Their operands'
 * types are known only when the request comes, and {@link StrictComparisons} checks them
 * then. A comparison of two typed operands needs no check: the checker has refused it
 * already unless the types agree. Immutable.
 *
 * @param operands each checked comparison's operands by id: which comparison, and which
 * side
 * @param negated whether one of them is an {@code !=}, or an {@code ==} or {@code in}
 * under {@code !}: a denial ({@code arguments.force != true}), which a value of another
 * type would have passed had the comparison been false rather than an error
 */
record Comparisons(Map<Long, Operand> operands, boolean negated) {

	static final Comparisons NONE = new Comparisons(Map.of(), false);

	Comparisons {
		operands = Map.copyOf(operands);
	}

	boolean isEmpty() {
		return this.operands.isEmpty();
	}

	/**
	 * One side of a checked comparison.
	 *
	 * @param comparison the id of the {@code ==}, {@code !=} or {@code in}
	 * @param left whether this is the left operand (evaluated first)
	 * @param membership whether the comparison is an {@code in}, whose right operand is
	 * the list or map searched
	 */
	record Operand(long comparison, boolean left, boolean membership) {
	}

	/** The comparisons of the checked {@code ast} whose operands are not typed. */
	static Comparisons of(CelAbstractSyntaxTree ast) {
		Map<Long, Operand> operands = new HashMap<>();
		Set<Long> negated = new HashSet<>();
		CelNavigableAst.fromAst(ast)
			.getRoot()
			.allNodes()
			.filter((node) -> node.getKind() == CelExpr.ExprKind.Kind.CALL)
			.forEach((node) -> {
				CelExpr call = node.expr();
				String function = call.call().function();
				if (function.equals("!_") && call.call().args().size() == 1) {
					negated.add(call.call().args().get(0).id());
				}
				boolean membership = function.equals("@in");
				List<CelExpr> args = call.call().args();
				if (!(membership || function.equals("_==_") || function.equals("_!=_")) || args.size() != 2
						|| call.call().target().isPresent()) {
					return;
				}
				if (dynamic(ast, args.get(0)) || dynamic(ast, args.get(1))) {
					operands.put(args.get(0).id(), new Operand(call.id(), true, membership));
					operands.put(args.get(1).id(), new Operand(call.id(), false, membership));
					if (function.equals("_!=_")) {
						negated.add(call.id());
					}
				}
			});
		boolean denies = operands.values().stream().anyMatch((operand) -> negated.contains(operand.comparison()));
		return new Comparisons(operands, denies);
	}

	private static boolean dynamic(CelAbstractSyntaxTree ast, CelExpr operand) {
		return ast.getType(operand.id()).map(Comparisons::dynamic).orElse(true);
	}

	private static boolean dynamic(CelType type) {
		CelKind kind = type.kind();
		if (kind == CelKind.DYN || kind == CelKind.ANY || kind == CelKind.TYPE_PARAM || kind == CelKind.ERROR) {
			return true;
		}
		for (CelType parameter : type.parameters()) {
			if (dynamic(parameter)) {
				return true;
			}
		}
		return false;
	}

}
