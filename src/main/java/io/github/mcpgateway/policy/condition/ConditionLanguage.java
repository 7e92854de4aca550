package io.github.mcpgateway.policy.condition;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExprUtil;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;

/**
 * The condition language: CEL with the standard macros ({@code has}, {@code all},
 * {@code exists}, {@code exists_one}, {@code map}, {@code filter}) and functions, over
 * the environment {@link ConditionInput} documents, typed so that the checker refuses
 * what it can prove wrong: an unknown variable, a string compared with a number
 * ({@code tool < 3}, {@code principal.team == 1}), a result that is not a boolean.
 * {@code arguments} and {@code params} are {@code map(string, dyn)}: what a client sends
 * is known only at call time.
 *
 * <p>
 * Expressions are bounded when compiled (length, nesting, nodes) and when evaluated
 * ({@link ConditionLimits}); regular expressions ({@code matches}) are RE2, linear in
 * their input, and bounded in program size. The compiler and runtime are immutable and
 * shared.
 *
 * <p>
 * The runtime is CEL-Java's interpreter ({@code legacyCelRuntimeBuilder}), not its newer
 * planner: in 0.14.0 the planner converts a variable's whole value on every read, a
 * comprehension's own result included, so {@code arguments.xs.map(x, x * 2)} over 1,000
 * elements took 143 ms against 1.3 ms (ADR 0018). The interpreter needs integers as
 * {@code long} and CEL's {@code null} for JSON null, which {@link ConditionInput} gives.
 */
public final class ConditionLanguage {

	/** The longest expression, in code points. */
	static final int MAX_LENGTH = 4_096;

	/** The deepest nesting the parser accepts. */
	static final int MAX_NESTING = 32;

	/** The most nodes an expression may have once its macros are expanded. */
	static final int MAX_NODES = 2_000;

	/** The largest regular expression program {@code matches} may run. */
	static final int MAX_REGEX_PROGRAM_SIZE = 1_000;

	/** The environment's variables. */
	private static final List<String> VARIABLES = List.of("principal", "server", "method", "tool", "arguments",
			"params");

	private static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
		.setOptions(CelOptions.current()
			.enableHeterogeneousNumericComparisons(true)
			.maxExpressionCodePointSize(MAX_LENGTH)
			.maxParseRecursionDepth(MAX_NESTING)
			.maxParseExpressionNodeCount(MAX_NODES)
			.build())
		.setStandardMacros(CelStandardMacro.STANDARD_MACROS)
		.addVar("principal", MapType.create(SimpleType.STRING, SimpleType.STRING))
		.addVar("server", MapType.create(SimpleType.STRING, SimpleType.STRING))
		.addVar("method", SimpleType.STRING)
		.addVar("tool", SimpleType.STRING)
		.addVar("arguments", MapType.create(SimpleType.STRING, SimpleType.DYN))
		.addVar("params", MapType.create(SimpleType.STRING, SimpleType.DYN))
		.setResultType(SimpleType.BOOL)
		.build();

	private static final CelRuntime RUNTIME = CelRuntimeFactory.legacyCelRuntimeBuilder()
		.setOptions(CelOptions.current()
			.enableHeterogeneousNumericComparisons(true)
			.maxRegexProgramSize(MAX_REGEX_PROGRAM_SIZE)
			.build())
		.build();

	private ConditionLanguage() {
	}

	/**
	 * Compiles and type-checks {@code source}.
	 * @throws IllegalArgumentException when it does not compile, naming the position in
	 * the expression ({@code line 1, column 12}) and CEL's reason
	 */
	public static Condition compile(String source) {
		if (source == null || source.isBlank()) {
			throw new IllegalArgumentException("the condition must not be blank; omit 'when' for none");
		}
		CelValidationResult result = COMPILER.compile(source);
		if (result.hasError()) {
			throw new IllegalArgumentException("the condition does not compile: " + describe(result.getErrors()));
		}
		try {
			CelAbstractSyntaxTree ast = result.getAst();
			return new Condition(source, RUNTIME.createProgram(ast), variablesRead(ast), matchedStrings(ast));
		}
		catch (dev.cel.common.CelValidationException | CelEvaluationException ex) {
			throw new IllegalArgumentException("the condition does not compile: " + ex.getMessage(), ex);
		}
	}

	private static String describe(List<CelIssue> issues) {
		CelIssue first = issues.get(0);
		String reason = first.getMessage();
		int candidates = reason.indexOf(" (candidates: ");
		// The checker lists every overload of the operator: the types found say enough.
		reason = (candidates > 0) ? reason.substring(0, candidates) : reason;
		int line = first.getSourceLocation().getLine();
		String where = (line > 0)
				? " (in the expression, line " + line + ", column " + (first.getSourceLocation().getColumn() + 1) + ")"
				: "";
		String more = (issues.size() > 1) ? " (and " + (issues.size() - 1) + " more)" : "";
		return reason + where + more;
	}

	/**
	 * The ids of the expressions whose strings {@code matches} runs on, which the budget
	 * charges a step per character before the match runs (a match cannot be stopped once
	 * it has started); a pattern must be a literal, so that no caller chooses the program
	 * a match runs.
	 */
	private static Set<Long> matchedStrings(CelAbstractSyntaxTree ast) {
		Set<Long> matched = new HashSet<>();
		CelNavigableAst.fromAst(ast)
			.getRoot()
			.allNodes()
			.filter((node) -> node.getKind() == CelExpr.ExprKind.Kind.CALL
					&& "matches".equals(node.expr().call().function()))
			.forEach((node) -> {
				CelExpr call = node.expr();
				List<CelExpr> operands = new ArrayList<>();
				call.call().target().ifPresent(operands::add);
				operands.addAll(call.call().args());
				CelExpr pattern = operands.get(operands.size() - 1);
				if (pattern.getKind() != CelExpr.ExprKind.Kind.CONSTANT) {
					throw new IllegalArgumentException(
							"the condition does not compile: matches() needs a literal pattern (a string in quotes)");
				}
				matched.add(operands.get(0).id());
			});
		return matched;
	}

	/**
	 * The environment's variables the expression reads, other than as the name of a
	 * comprehension's own variable.
	 */
	private static Set<String> variablesRead(CelAbstractSyntaxTree ast) {
		Set<String> read = new HashSet<>();
		CelNavigableAst.fromAst(ast)
			.getRoot()
			.allNodes()
			.filter((node) -> node.getKind() == CelExpr.ExprKind.Kind.IDENT)
			.forEach((node) -> {
				String name = node.expr().ident().name();
				for (String variable : VARIABLES) {
					if (name.equals("." + variable)
							|| (name.equals(variable) && !CelNavigableExprUtil.isVariableShadowed(node, variable))) {
						read.add(variable);
					}
				}
			});
		return read;
	}

}
