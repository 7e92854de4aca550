package io.github.mcpgateway.idempotency.redis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.idempotency.BeginResult;
import io.github.mcpgateway.idempotency.IdempotencyEntry;
import io.github.mcpgateway.idempotency.IdempotencyProperties;
import io.github.mcpgateway.idempotency.IdempotencyStore;
import io.github.mcpgateway.idempotency.StoredReply;
import io.github.mcpgateway.idempotency.memory.InMemoryIdempotencyStore;
import io.github.mcpgateway.support.RedisServer;

/**
 * JMH: a new key through each store (begin, then complete with a 1 KiB reply), the Redis
 * store against a real redis-server on loopback started by the benchmark. Run with
 * {@code bench/jmh.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RedisIdempotencyBenchmark {

	private RedisServer server;

	private LettuceConnectionFactory connections;

	private IdempotencyStore redisStore;

	private IdempotencyStore memoryStore;

	private final StoredReply reply = new StoredReply(200, "application/json", new byte[1024]);

	private final AtomicLong keys = new AtomicLong();

	@Setup
	public void setUp() {
		this.server = RedisServer.start();
		this.connections = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", this.server.port()));
		this.connections.afterPropertiesSet();
		this.connections.start();
		IdempotencyProperties.Limits limits = IdempotencyProperties.Limits.defaults();
		this.redisStore = new RedisIdempotencyStore(
				new StringRedisTemplate(this.connections), new IdempotencyProperties.Redis("{bench}:idem:",
						Duration.ofSeconds(30), Duration.ofSeconds(10), limits),
				Duration.ofMinutes(6), GatewayClock.system(), new SimpleMeterRegistry());
		this.memoryStore = new InMemoryIdempotencyStore(limits, GatewayClock.system());
	}

	@TearDown
	public void tearDown() {
		this.connections.destroy();
		this.server.close();
	}

	@Benchmark
	public BeginResult redisBeginAndComplete() {
		return beginAndComplete(this.redisStore);
	}

	@Benchmark
	public BeginResult memoryBeginAndComplete() {
		return beginAndComplete(this.memoryStore);
	}

	private BeginResult beginAndComplete(IdempotencyStore store) {
		long n = this.keys.incrementAndGet();
		IdempotencyEntry entry = new IdempotencyEntry(Long.toString(n), "hash", "scope-" + (n % 64),
				"principal-" + (n % 16), "human-" + (n % 16));
		BeginResult result = store.begin(entry);
		store.complete(entry, this.reply);
		return result;
	}

}
