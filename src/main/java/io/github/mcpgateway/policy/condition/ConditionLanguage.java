package io.github.mcpgateway.policy.condition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelConstant;
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
 * their input, and bounded in program size. An {@code ==}, {@code !=} or {@code in} of
 * values of different types is an error, not false ({@link StrictComparisons}). The
 * compiler and runtime are immutable and shared.
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
			return new Condition(source, RUNTIME.createProgram(ast), variablesRead(ast), stringCosts(ast),
					Comparisons.of(ast), fieldsRead(ast));
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
		// There is one container, the root: naming it says nothing.
		reason = reason.replace(" (in container '')", "");
		int line = first.getSourceLocation().getLine();
		String where = (line > 0)
				? " (in the expression, line " + line + ", column " + (first.getSourceLocation().getColumn() + 1) + ")"
				: "";
		String more = (issues.size() > 1) ? " (and " + (issues.size() - 1) + " more)" : "";
		return reason + where + more;
	}

	/**
	 * What the string functions whose time a single step does not bound will cost, by the
	 * ids of their operands: a {@code matches} pattern must be a literal, compile and be
	 * at most {@value #MAX_REGEX_PROGRAM_SIZE} instructions, and the string it runs on
	 * costs its length times the program's size; {@code contains} costs the product of
	 * its two strings' lengths. Both are charged once the operands are known, before the
	 * function runs (neither can be stopped once it has started).
	 */
	private static StringCosts stringCosts(CelAbstractSyntaxTree ast) {
		Map<Long, Integer> matched = new HashMap<>();
		Map<Long, Long> haystacks = new HashMap<>();
		Map<Long, Long> needles = new HashMap<>();
		CelNavigableAst.fromAst(ast)
			.getRoot()
			.allNodes()
			.filter((node) -> node.getKind() == CelExpr.ExprKind.Kind.CALL)
			.forEach((node) -> {
				CelExpr call = node.expr();
				List<CelExpr> operands = new ArrayList<>();
				call.call().target().ifPresent(operands::add);
				operands.addAll(call.call().args());
				if (operands.size() != 2) {
					return;
				}
				switch (call.call().function()) {
					case "matches" -> matched.put(operands.get(0).id(), programSize(operands.get(1)));
					case "contains" -> {
						haystacks.put(operands.get(0).id(), call.id());
						needles.put(operands.get(1).id(), call.id());
					}
					default -> {
					}
				}
			});
		return new StringCosts(matched, haystacks, needles);
	}

	private static int programSize(CelExpr pattern) {
		if (pattern.getKind() != CelExpr.ExprKind.Kind.CONSTANT
				|| pattern.constant().getKind() != CelConstant.Kind.STRING_VALUE) {
			throw new IllegalArgumentException(
					"the condition does not compile: matches() needs a literal pattern (a string in quotes)");
		}
		String regex = pattern.constant().stringValue();
		Pattern compiled;
		try {
			compiled = Pattern.compile(regex);
		}
		catch (PatternSyntaxException ex) {
			throw new IllegalArgumentException(
					"the condition does not compile: the pattern of matches() is not a regular expression: "
							+ ex.getDescription());
		}
		if (compiled.programSize() > MAX_REGEX_PROGRAM_SIZE) {
			throw new IllegalArgumentException("the condition does not compile: the pattern of matches() is too large ("
					+ compiled.programSize() + " instructions, at most " + MAX_REGEX_PROGRAM_SIZE + ")");
		}
		return compiled.programSize();
	}

	/**
	 * The members the expression selects directly on {@code arguments} or {@code params}
	 * ({@code amount} of {@code arguments.amount} or {@code has(arguments.amount)}).
	 */
	private static Set<String> fieldsRead(CelAbstractSyntaxTree ast) {
		Set<String> fields = new HashSet<>();
		CelNavigableAst.fromAst(ast)
			.getRoot()
			.allNodes()
			.filter((node) -> node.getKind() == CelExpr.ExprKind.Kind.SELECT)
			.forEach((node) -> {
				CelExpr operand = node.expr().select().operand();
				if (operand.getKind() == CelExpr.ExprKind.Kind.IDENT
						&& List.of("arguments", "params").contains(operand.ident().name())) {
					fields.add(node.expr().select().field());
				}
			});
		return fields;
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
