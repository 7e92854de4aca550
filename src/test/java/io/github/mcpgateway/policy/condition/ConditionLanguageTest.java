package io.github.mcpgateway.policy.condition;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.jsonrpc.JsonReadLimits;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.support.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The condition language as the policy file meets it: what the type checker refuses, what
 * a request's values give, every evaluation error counted as a result that does not
 * allow, and the evaluation budget.
 */
class ConditionLanguageTest {

	/** The request path's own reader: numbers exactly, as BigDecimal. */
	private static final StrictJsonReader JSON = new StrictJsonReader(JsonReadLimits.DEFAULTS, 4 * 1024 * 1024);

	private static final YAMLMapper YAML = YAMLMapper.builder().build();

	private static final ConditionInput.Server SERVER = new ConditionInput.Server("payments", "ledger", "uid-1");

	private static final McpPrincipal ALICE = new McpPrincipal("alice", "agent-1", "payments");

	/**
	 * A clock that does not move: outcomes are the steps' and allocation's, never the
	 * machine's speed (the deadline has its own test, with a clock that does move).
	 */
	private static final GatewayClock STILL = new MutableClock();

	private static final String LEDGER = "arguments.amount < 1000 && arguments.currency == \"EUR\"";

	@Test
	void anAmountBoundAllowsOnlyWhatItSays() {
		Condition condition = ConditionLanguage.compile(LEDGER);

		assertThat(evaluate(condition, "{\"amount\":999,\"currency\":\"EUR\"}")).isEqualTo(ConditionResult.TRUE);
		assertThat(evaluate(condition, "{\"amount\":999.5,\"currency\":\"EUR\"}")).isEqualTo(ConditionResult.TRUE);
		assertThat(evaluate(condition, "{\"amount\":1000,\"currency\":\"EUR\"}")).isEqualTo(ConditionResult.FALSE);
		assertThat(evaluate(condition, "{\"amount\":999,\"currency\":\"USD\"}")).isEqualTo(ConditionResult.FALSE);
		assertThat(evaluate(condition, "{\"currency\":\"EUR\"}")).isEqualTo(ConditionResult.MISSING_FIELD);
		assertThat(evaluate(condition, "{\"amount\":\"999\",\"currency\":\"EUR\"}"))
			.isEqualTo(ConditionResult.WRONG_TYPE);
		assertThat(evaluate(condition, "{\"amount\":null,\"currency\":\"EUR\"}")).isEqualTo(ConditionResult.WRONG_TYPE);
		assertThat(condition.readsCall()).isTrue();
		assertThat(ConditionResult.MISSING_FIELD.allows()).isFalse();
	}

	@Test
	void theTypeCheckerRefusesWhatItCanProveWrongWithThePosition() {
		assertThatIllegalArgumentException().isThrownBy(() -> ConditionLanguage.compile("argumnts.amount < 1000"))
			.withMessageContaining("undeclared reference to 'argumnts'")
			.withMessageContaining("line 1, column 1");
		assertThatIllegalArgumentException().isThrownBy(() -> ConditionLanguage.compile("tool < 3"))
			.withMessageContaining("no matching overload");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ConditionLanguage.compile("tool == \"a\" &&\n  principal.team == 7"))
			.withMessageContaining("line 2");
		assertThatIllegalArgumentException().isThrownBy(() -> ConditionLanguage.compile("tool"))
			.withMessageContaining("bool");
		assertThatIllegalArgumentException().isThrownBy(() -> ConditionLanguage.compile("arguments.amount <"))
			.withMessageContaining("does not compile");
		assertThatIllegalArgumentException().isThrownBy(() -> ConditionLanguage.compile(" "))
			.withMessageContaining("blank");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ConditionLanguage.compile("true" + " && true".repeat(ConditionLanguage.MAX_LENGTH / 8)))
			.withMessageContaining("does not compile");
	}

	@Test
	void aConditionOnThePrincipalIsDecidedWithoutTheCall() {
		Condition team = ConditionLanguage
			.compile("principal.team == \"payments\" && server.namespace == \"payments\"");
		Condition shadowed = ConditionLanguage.compile("[1, 2].all(arguments, arguments > 0)");

		assertThat(team.readsCall()).isFalse();
		assertThat(shadowed.readsCall()).as("a comprehension's own variable is not the call's").isFalse();
		assertThat(ConditionLanguage.compile("has(params.uri)").readsCall()).isTrue();
		assertThat(team.evaluate(ConditionInput.listing(SERVER, ALICE, "tools/call", "ledger_write"),
				ConditionLimits.DEFAULTS, STILL))
			.isEqualTo(ConditionResult.TRUE);
		assertThat(team.evaluate(ConditionInput.listing(SERVER, null, "tools/call", "ledger_write"),
				ConditionLimits.DEFAULTS, STILL))
			.as("no verified principal: the variable has no value")
			.isEqualTo(ConditionResult.MISSING_FIELD);
	}

	@Test
	void theCommonShapesOfAConditionEvaluateAsWritten() {
		assertThat(evaluate(
				ConditionLanguage
					.compile("arguments.query.startsWith(\"SELECT \") && !arguments.query.contains(\";\")"),
				"{\"query\":\"SELECT * FROM t\"}"))
			.isEqualTo(ConditionResult.TRUE);
		assertThat(evaluate(
				ConditionLanguage
					.compile("arguments.path.startsWith(\"/srv/data/\") && " + "!arguments.path.contains(\"..\")"),
				"{\"path\":\"/srv/data/../etc/passwd\"}"))
			.isEqualTo(ConditionResult.FALSE);
		assertThat(evaluate(ConditionLanguage.compile("!(has(arguments.force) && arguments.force == true)"),
				"{\"force\":true}"))
			.isEqualTo(ConditionResult.FALSE);
		assertThat(evaluate(ConditionLanguage.compile("arguments.team == principal.team"), "{\"team\":\"payments\"}"))
			.isEqualTo(ConditionResult.TRUE);
		assertThat(evaluate(ConditionLanguage.compile("arguments.tags.all(t, t in [\"a\", \"b\"])"),
				"{\"tags\":[\"a\",\"c\"]}"))
			.isEqualTo(ConditionResult.FALSE);
		assertThat(evaluate(ConditionLanguage.compile("arguments.flag"), "{\"flag\":\"yes\"}"))
			.isEqualTo(ConditionResult.NOT_BOOLEAN);
		assertThat(evaluate(ConditionLanguage.compile("arguments.n / arguments.d > 1"), "{\"n\":1,\"d\":0}"))
			.isEqualTo(ConditionResult.FAILED);
	}

	@Test
	void aComparisonOfAValueOfAnotherTypeIsAnErrorNotAnAllow() {
		Condition neverForce = ConditionLanguage.compile("arguments.force != true");
		Condition negated = ConditionLanguage.compile("!(arguments.force == true)");
		Condition notProd = ConditionLanguage.compile("!(arguments.env in [\"prod\"])");

		for (String sent : new String[] { "\"true\"", "1", "[true]", "{\"a\":true}" }) {
			assertThat(evaluate(neverForce, "{\"force\":" + sent + "}")).as(sent).isEqualTo(ConditionResult.WRONG_TYPE);
			assertThat(evaluate(negated, "{\"force\":" + sent + "}")).as(sent).isEqualTo(ConditionResult.WRONG_TYPE);
		}
		assertThat(evaluate(neverForce, "{\"force\":false}")).isEqualTo(ConditionResult.TRUE);
		assertThat(evaluate(neverForce, "{\"force\":true}")).isEqualTo(ConditionResult.FALSE);
		assertThat(evaluate(neverForce, "{\"force\":null}")).as("null compares with anything")
			.isEqualTo(ConditionResult.TRUE);
		assertThat(evaluate(notProd, "{\"env\":[\"prod\"]}")).isEqualTo(ConditionResult.WRONG_TYPE);
		assertThat(evaluate(notProd, "{\"env\":\"dev\"}")).isEqualTo(ConditionResult.TRUE);
		assertThat(evaluate(ConditionLanguage.compile("arguments.flags != [true]"), "{\"flags\":[\"true\"]}"))
			.as("element by element")
			.isEqualTo(ConditionResult.WRONG_TYPE);
		assertThat(evaluate(ConditionLanguage.compile("arguments.m != {\"a\": true}"), "{\"m\":{\"a\":\"true\"}}"))
			.as("member by member")
			.isEqualTo(ConditionResult.WRONG_TYPE);
		assertThat(evaluate(ConditionLanguage.compile("!(\"admin\" in arguments.roles)"), "{\"roles\":[[\"admin\"]]}"))
			.isEqualTo(ConditionResult.WRONG_TYPE);
		assertThat(evaluate(ConditionLanguage.compile("!(\"admin\" in arguments.roles)"), "{\"roles\":{\"x\":1e400}}"))
			.as("a map's keys only, its values not read")
			.isEqualTo(ConditionResult.TRUE);
		assertThat(evaluate(ConditionLanguage.compile("arguments.amount == 1000"), "{\"amount\":1000.0}"))
			.as("numbers are one kind")
			.isEqualTo(ConditionResult.TRUE);
		assertThat(evaluate(ConditionLanguage.compile("arguments.force != true || true"), "{\"force\":\"true\"}"))
			.as("|| absorbs the error as it absorbs any other")
			.isEqualTo(ConditionResult.TRUE);
		assertThat(evaluate(ConditionLanguage.compile("arguments.tags.exists(t, t == \"a\")"), "{\"tags\":[\"a\"]}"))
			.isEqualTo(ConditionResult.TRUE);
	}

	@Test
	void anExpressionBuiltToBeExpensiveIsStoppedByItsBudget() {
		String elements = "[" + "1,".repeat(9_999) + "1]";
		Condition nested = ConditionLanguage.compile("arguments.xs.all(x, arguments.xs.all(y, x == y))");
		Condition absorbed = ConditionLanguage.compile("arguments.xs.all(x, arguments.xs.all(y, x == y)) || true");
		ConditionLimits limits = new ConditionLimits(100_000, 1_000_000, Duration.ofMillis(50));

		long started = System.nanoTime();
		ConditionResult result = evaluate(nested, "{\"xs\":" + elements + "}", limits);
		ConditionResult orTrue = evaluate(absorbed, "{\"xs\":" + elements + "}", limits);
		Duration took = Duration.ofNanos(System.nanoTime() - started);

		assertThat(result).isEqualTo(ConditionResult.BUDGET_EXCEEDED);
		assertThat(orTrue).as("|| does not absorb a spent budget").isEqualTo(ConditionResult.BUDGET_EXCEEDED);
		assertThat(took).as("both stopped near their bound").isLessThan(Duration.ofSeconds(2));
		assertThat(evaluate(nested, "{\"xs\":[1,1,1]}", limits)).isEqualTo(ConditionResult.TRUE);
	}

	@Test
	void anExpressionBuiltToAllocateIsStoppedByItsBudget() {
		String big = "x".repeat(100_000);
		Condition doubling = ConditionLanguage.compile("(arguments.s + arguments.s + arguments.s + arguments.s + "
				+ "arguments.s + arguments.s + arguments.s + arguments.s + arguments.s + arguments.s).size() > 0");
		Condition mapped = ConditionLanguage.compile("arguments.xs.map(x, arguments.s + \"!\").size() > 0 || true");
		Condition honestMap = ConditionLanguage.compile("arguments.xs.map(x, x * 2).all(y, y % 2 == 0)");
		String arguments = "{\"s\":\"" + big + "\",\"xs\":[" + "1,".repeat(999) + "1]}";

		assertThat(evaluate(doubling, arguments)).isEqualTo(ConditionResult.BUDGET_EXCEEDED);
		assertThat(evaluate(mapped, arguments)).isEqualTo(ConditionResult.BUDGET_EXCEEDED);
		assertThat(evaluate(honestMap, arguments)).as("a comprehension's own result is not counted per step")
			.isEqualTo(ConditionResult.TRUE);
		assertThat(evaluate(ConditionLanguage.compile("arguments.s.size() == 100000"), arguments))
			.isEqualTo(ConditionResult.TRUE);
	}

	@Test
	void aNumberCelCannotHoldExactlyIsNotRoundedIntoAnAllow() {
		Condition bound = ConditionLanguage.compile("arguments.amount <= 1000");

		assertThat(evaluate(bound, "{\"amount\":1000.00000000000000001}")).isEqualTo(ConditionResult.WRONG_TYPE);
		assertThat(evaluate(bound, "{\"amount\":100000000000000000000000}")).isEqualTo(ConditionResult.WRONG_TYPE);
		assertThat(evaluate(bound, "{\"amount\":1e400}")).isEqualTo(ConditionResult.WRONG_TYPE);
		assertThat(evaluate(bound, "{\"amount\":999.25}")).isEqualTo(ConditionResult.TRUE);
		assertThat(evaluate(bound, "{\"amount\":0.1}")).isEqualTo(ConditionResult.TRUE);
		assertThat(evaluate(ConditionLanguage.compile("arguments.other == 1"),
				"{\"other\":1,\"amount\":1000.00000000000000001}"))
			.as("only what the expression reads")
			.isEqualTo(ConditionResult.TRUE);
	}

	@Test
	void withoutAVerifiedPrincipalNoExpressionOverItIsTrue() {
		for (String source : new String[] { "!has(principal.agent)", "!(\"agent\" in principal)",
				"principal.team == \"ops\"", "size(principal) == 0" }) {
			assertThat(ConditionLanguage.compile(source)
				.evaluate(ConditionInput.listing(SERVER, null, "tools/call", "t"), ConditionLimits.DEFAULTS, STILL)
				.allows()).as(source).isFalse();
		}
	}

	@Test
	void aRegularExpressionNeedsALiteralPatternAndItsInputIsPaidForBeforeItRuns() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ConditionLanguage.compile("arguments.s.matches(arguments.p)"))
			.withMessageContaining("literal pattern");
		Condition match = ConditionLanguage.compile("arguments.s.matches(\"^(a|b)+$\")");

		assertThat(evaluate(match, "{\"s\":\"abab\"}")).isEqualTo(ConditionResult.TRUE);
		assertThat(evaluate(match, "{\"s\":\"" + "a".repeat(200_000) + "\"}"))
			.as("200,000 characters are more steps than the budget")
			.isEqualTo(ConditionResult.BUDGET_EXCEEDED);
	}

	@Test
	void aSearchOrAMatchIsPaidForBeforeItRunsByTheSizeOfItsWork() {
		String haystack = "a".repeat(600_000);
		String needle = "a".repeat(300_000) + "b";
		Condition search = ConditionLanguage.compile("arguments.s.contains(arguments.n)");
		Condition wide = ConditionLanguage.compile("arguments.s.matches(\"([a-z][0-9]?){1,150}z\")");

		assertThat(evaluate(search, "{\"s\":\"" + haystack + "\",\"n\":\"" + needle + "\"}"))
			.as("600,000 × 300,000 comparisons are more than the budget")
			.isEqualTo(ConditionResult.BUDGET_EXCEEDED);
		assertThat(evaluate(search, "{\"s\":\"" + haystack + "\",\"n\":\"aab\"}")).isEqualTo(ConditionResult.FALSE);
		assertThat(evaluate(wide, "{\"s\":\"" + "a1".repeat(49_000) + "\"}"))
			.as("a large program over 98,000 characters")
			.isEqualTo(ConditionResult.BUDGET_EXCEEDED);
		assertThat(evaluate(wide, "{\"s\":\"a1b2z\"}")).isEqualTo(ConditionResult.TRUE);
		assertThatIllegalArgumentException().isThrownBy(() -> ConditionLanguage.compile("arguments.s.matches(\"(\")"))
			.withMessageContaining("not a regular expression");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ConditionLanguage.compile("arguments.s.matches(\"(a|b|c){1,1000}\")"))
			.withMessageContaining("too large");
	}

	@Test
	void theDeadlineIsReadAfterEveryNode() {
		Condition condition = ConditionLanguage.compile("arguments.xs.all(x, x == 1)");
		JsonNode params = JSON.read("{\"name\":\"t\",\"arguments\":{\"xs\":[1,1,1,1,1,1,1,1,1,1]}}"
			.getBytes(java.nio.charset.StandardCharsets.UTF_8));
		ConditionLimits limits = new ConditionLimits(1_000_000, 1_000_000, Duration.ofMillis(50));
		ConditionInput input = ConditionInput.of(SERVER, ALICE, "tools/call", "t", params);

		assertThat(condition.evaluate(input, limits, STILL)).isEqualTo(ConditionResult.TRUE);
		GatewayClock slow = new GatewayClock() {

			private long now;

			@Override
			public java.time.Instant instant() {
				return java.time.Instant.EPOCH;
			}

			@Override
			public long nanoTime() {
				// Each reading is 6 ms later: the eleventh node is past 50 ms.
				this.now += Duration.ofMillis(6).toNanos();
				return this.now;
			}

		};
		assertThat(condition.evaluate(input, limits, slow)).isEqualTo(ConditionResult.BUDGET_EXCEEDED);
	}

	@Test
	void theTenDocumentedConditionsCompileAndAreDecidedWhereTheDocsSay() throws IOException {
		String reference = Files.readString(Path.of("docs/configuration.md"));
		int heading = reference.indexOf("#### Ten conditions a platform team writes");
		int start = reference.indexOf("```yaml\n", heading) + "```yaml\n".length();
		List<String> lines = reference.substring(start, reference.indexOf("```", start))
			.lines()
			.filter((line) -> line.startsWith("when: "))
			.toList();

		assertThat(lines).hasSize(10);
		List<Integer> listTime = new ArrayList<>();
		for (int i = 0; i < lines.size(); i++) {
			String source = YAML.readTree(lines.get(i)).get("when").asString();
			if (!ConditionLanguage.compile(source).readsCall()) {
				listTime.add(i + 1);
			}
		}
		assertThat(listTime).as("the examples decided at list time").containsExactly(9);
	}

	private static ConditionResult evaluate(Condition condition, String arguments) {
		return evaluate(condition, arguments, ConditionLimits.DEFAULTS);
	}

	private static ConditionResult evaluate(Condition condition, String arguments, ConditionLimits limits) {
		JsonNode params = JSON.read(("{\"name\":\"ledger_write\",\"arguments\":" + arguments + "}")
			.getBytes(java.nio.charset.StandardCharsets.UTF_8));
		return condition.evaluate(ConditionInput.of(SERVER, ALICE, "tools/call", "ledger_write", params), limits,
				STILL);
	}

}
