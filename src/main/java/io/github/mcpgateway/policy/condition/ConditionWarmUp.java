package io.github.mcpgateway.policy.condition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.util.Assert;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * Evaluates the conditions of a policy being loaded, off the request path, so that no
 * request meets one cold ({@link Condition}: the first evaluation runs code the JVM has
 * not loaded or compiled, and a refusal must not depend on that).
 *
 * <p>
 * Each condition is evaluated on gateway-made inputs: a principal, a server and a
 * {@code tools/call} whose {@code arguments} and {@code params} set every member the
 * expression reads to one value, in turn a string, a number, a decimal, a boolean, a
 * list, a map and nothing at all, so that its comparisons, functions and error paths all
 * run. {@value #ROUNDS} rounds, every condition once per round.
 *
 * <p>
 * <b>Bounds.</b> No caller chooses what is evaluated: the expressions are the policy
 * file's, the inputs the gateway's and small. Each evaluation is within the configured
 * budget ({@code max-steps}, {@code max-allocation}, {@code max-time}) and the whole
 * warm-up stops after {@link #MAX_TIME}, between two evaluations: a policy of thousands
 * of conditions delays its load by that at most, and a condition it did not reach is
 * still not held to {@code max-time} cold ({@link Condition#COLD_TIME}). Results are
 * discarded: neither counted nor logged.
 */
public final class ConditionWarmUp {

	/** How many times each condition is evaluated on each input. */
	static final int ROUNDS = 3;

	/** The longest one policy load spends warming its conditions. */
	public static final Duration MAX_TIME = Duration.ofSeconds(2);

	private static final ConditionInput.Server SERVER = new ConditionInput.Server("warm-up", "warm-up", "warm-up");

	private static final McpPrincipal PRINCIPAL = new McpPrincipal("warm-up", "warm-up", "warm-up");

	private static final List<JsonNode> VALUES = List.of(JsonNodeFactory.instance.stringNode("warm-up"),
			JsonNodeFactory.instance.numberNode(1L), JsonNodeFactory.instance.numberNode(1.5),
			JsonNodeFactory.instance.booleanNode(true),
			JsonNodeFactory.instance.arrayNode().add("warm-up").add(1L).add(true),
			JsonNodeFactory.instance.objectNode().put("warm-up", "warm-up"));

	private final ConditionLimits limits;

	private final GatewayClock clock;

	/**
	 * @param limits the budget of each evaluation, as on the request path
	 * @param clock the clock the evaluations and {@link #MAX_TIME} are read from
	 */
	public ConditionWarmUp(ConditionLimits limits, GatewayClock clock) {
		Assert.notNull(limits, "limits must not be null");
		Assert.notNull(clock, "clock must not be null");
		this.limits = limits;
		this.clock = clock;
	}

	/**
	 * What one warm-up did.
	 *
	 * @param warmed the conditions that completed an evaluation
	 * @param conditions the conditions given
	 * @param took how long it took
	 */
	public record Result(int warmed, int conditions, Duration took) {
	}

	/** Evaluates each of {@code conditions}, within {@link #MAX_TIME} in all. */
	public Result warm(Collection<Condition> conditions) {
		long started = this.clock.nanoTime();
		List<List<ConditionInput>> inputs = new ArrayList<>(conditions.size());
		for (Condition condition : conditions) {
			inputs.add(inputsFor(condition));
		}
		warming: for (int round = 0; round < ROUNDS; round++) {
			int i = 0;
			for (Condition condition : conditions) {
				for (ConditionInput input : inputs.get(i)) {
					if (this.clock.nanoTime() - started > MAX_TIME.toNanos()) {
						break warming;
					}
					condition.evaluate(input, this.limits, this.clock);
				}
				i++;
			}
		}
		int warmed = (int) conditions.stream().filter(Condition::isWarm).count();
		return new Result(warmed, conditions.size(), Duration.ofNanos(this.clock.nanoTime() - started));
	}

	private static List<ConditionInput> inputsFor(Condition condition) {
		List<ConditionInput> inputs = new ArrayList<>(VALUES.size() + 1);
		for (JsonNode value : VALUES) {
			ObjectNode arguments = JsonNodeFactory.instance.objectNode();
			ObjectNode params = JsonNodeFactory.instance.objectNode();
			for (String field : condition.fieldsRead()) {
				arguments.set(field, value);
				params.set(field, value);
			}
			params.put("name", "warm-up");
			params.set("arguments", arguments);
			inputs.add(ConditionInput.of(SERVER, PRINCIPAL, "tools/call", "warm-up", params));
		}
		inputs.add(ConditionInput.of(SERVER, PRINCIPAL, "tools/call", "warm-up", null));
		return inputs;
	}

}
