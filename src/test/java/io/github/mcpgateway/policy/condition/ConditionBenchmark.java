package io.github.mcpgateway.policy.condition;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.jsonrpc.JsonReadLimits;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * JMH benchmarks of one grant condition's evaluation: the documented ledger condition on
 * its arguments, and the expression built to be expensive (nested comprehensions over
 * 10,000 elements), which the default budget stops. Run with
 * {@code JMH_INCLUDE=ConditionBenchmark bench/jmh.sh}; figures go to
 * {@code docs/performance.md}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ConditionBenchmark {

	private static final ConditionInput.Server SERVER = new ConditionInput.Server("payments", "ledger", "uid-1");

	private static final McpPrincipal PRINCIPAL = new McpPrincipal("alice", "agent-1", "payments");

	private Condition ledger;

	private Condition nested;

	private JsonNode ledgerParams;

	private JsonNode nestedParams;

	@Setup
	public void setUp() {
		StrictJsonReader reader = new StrictJsonReader(JsonReadLimits.DEFAULTS, 1024 * 1024);
		this.ledger = ConditionLanguage.compile("arguments.amount < 1000 && arguments.currency == \"EUR\"");
		this.nested = ConditionLanguage.compile("arguments.xs.all(x, arguments.xs.all(y, x == y))");
		this.ledgerParams = reader
			.read("{\"name\":\"ledger_write\",\"arguments\":{\"amount\":999,\"currency\":\"EUR\"}}"
				.getBytes(StandardCharsets.UTF_8));
		this.nestedParams = reader.read(("{\"name\":\"heavy\",\"arguments\":{\"xs\":[" + "1,".repeat(9_999) + "1]}}")
			.getBytes(StandardCharsets.UTF_8));
		if (ledger() != ConditionResult.TRUE || nestedOver10000() != ConditionResult.BUDGET_EXCEEDED) {
			throw new IllegalStateException("the benchmark's conditions do not give what they measure");
		}
	}

	@Benchmark
	public ConditionResult ledger() {
		return this.ledger.evaluate(
				ConditionInput.of(SERVER, PRINCIPAL, "tools/call", "ledger_write", this.ledgerParams),
				ConditionLimits.DEFAULTS, GatewayClock.system());
	}

	@Benchmark
	public ConditionResult nestedOver10000() {
		return this.nested.evaluate(ConditionInput.of(SERVER, PRINCIPAL, "tools/call", "heavy", this.nestedParams),
				ConditionLimits.DEFAULTS, GatewayClock.system());
	}

}
