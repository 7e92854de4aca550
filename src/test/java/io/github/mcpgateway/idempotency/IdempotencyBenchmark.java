package io.github.mcpgateway.idempotency;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import io.github.mcpgateway.idempotency.memory.InMemoryIdempotencyStore;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.jsonrpc.JsonRpcMessageParser;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.support.TestJsonRpc;

/**
 * JMH benchmarks of the keyed hot path: the request hash (parse, canonical params,
 * SHA-256) on 1 KiB and 32 KiB params, and a store begin+complete. Run with
 * {@code bench/jmh.sh}; figures go to {@code docs/performance.md}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class IdempotencyBenchmark {

	private static final McpPrincipal PRINCIPAL = new McpPrincipal("alice", "agent", "team");

	@Param({ "1024", "32768" })
	public int paramsBytes;

	private byte[] body;

	private JsonRpcMessageParser parser;

	private JsonRpcMessage message;

	private InMemoryIdempotencyStore store;

	private StoredReply reply;

	private final AtomicLong keys = new AtomicLong();

	@Setup
	public void setUp() {
		this.parser = TestJsonRpc.parser();
		StringBuilder arguments = new StringBuilder("{");
		int i = 0;
		while (arguments.length() < this.paramsBytes - 40) {
			arguments.append(i > 0 ? "," : "").append("\"field").append(i).append("\":\"value-").append(i).append('"');
			i++;
		}
		arguments.append('}');
		this.body = ("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"notes_create\","
				+ "\"arguments\":" + arguments + "}}")
			.getBytes(StandardCharsets.UTF_8);
		this.message = this.parser.parse(this.body);
		this.store = new InMemoryIdempotencyStore(IdempotencyProperties.Limits.defaults(), Clock.systemUTC());
		this.reply = new StoredReply(200, "application/json", new byte[1024]);
	}

	/** What a keyed request adds before dispatch: hashing the already parsed message. */
	@Benchmark
	public IdempotencyEntry requestHash() {
		return IdempotencyHasher.entry("3f2b9c1e-7d4a-4e8b-9c1f-0a2b3c4d5e6f", PRINCIPAL, "session", "uid",
				this.message);
	}

	/** The parse every request pays, keyed or not, for comparison. */
	@Benchmark
	public JsonRpcMessage parse() {
		return this.parser.parse(this.body);
	}

	/** A new key through the store: begin, then complete with a 1 KiB reply. */
	@Benchmark
	public BeginResult beginAndComplete() {
		IdempotencyEntry entry = new IdempotencyEntry(Long.toString(this.keys.incrementAndGet()), "hash",
				"scope-" + (this.keys.get() % 64), "principal-" + (this.keys.get() % 16),
				"human-" + (this.keys.get() % 16));
		BeginResult result = this.store.begin(entry);
		this.store.complete(entry, this.reply);
		return result;
	}

}
