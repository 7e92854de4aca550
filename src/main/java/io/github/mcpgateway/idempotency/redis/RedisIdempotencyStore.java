package io.github.mcpgateway.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.StringRedisSerializer;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.idempotency.BeginResult;
import io.github.mcpgateway.idempotency.BeginResult.Limit;
import io.github.mcpgateway.idempotency.BeginResult.Refusal;
import io.github.mcpgateway.idempotency.IdempotencyEntry;
import io.github.mcpgateway.idempotency.IdempotencyProperties;
import io.github.mcpgateway.idempotency.IdempotencyStats;
import io.github.mcpgateway.idempotency.IdempotencyStore;
import io.github.mcpgateway.idempotency.IdempotencyStoreException;
import io.github.mcpgateway.idempotency.StoreFence;
import io.github.mcpgateway.idempotency.StoredReply;
import io.github.mcpgateway.redis.RedisScripts;

/**
 * The Idempotency-Key store shared by gateway replicas, on Redis.
 *
 * <p>
 * Design notes. Every transition (begin with all its quota checks and evictions,
 * complete, tombstone, release) is one Lua script, so it is atomic across replicas: two
 * replicas can never both start a key, and no quota is overrun by a race. The scripts
 * mirror {@code InMemoryIdempotencyStore} rule for rule; one contract test suite runs
 * against both. Time comes from the injected {@link GatewayClock} of the calling replica,
 * sent to every script as {@code now} (the rule of docs/architecture.md, "Clocks and
 * Redis"): entries, leases and expiry queues are the in-memory store's, rule for rule, on
 * the same clock, and TTL and leases tolerate the small skew between NTP-synchronised
 * hosts; the keys have no Redis TTL.
 * <ul>
 * <li><b>Leases.</b> An in-flight entry carries a lease that the replica running it
 * renews ({@link #renewLeases()}). A replica that dies mid-call stops renewing; once the
 * lease lapses the next script turns the entry into an outcome-unknown tombstone: the
 * tool may have run, so it never runs again, and the slot does not stay blocked.</li>
 * <li><b>Humans.</b> The per-human level of ADR 0019 keeps counters like the others, and
 * also lists each human's entry ids, so that counters a version without that level left
 * too high (it removes entries without uncounting them) are rebuilt before they refuse
 * anyone ({@code recount} in {@code common.lua}).</li>
 * <li><b>Keys.</b> All keys start with the configured prefix, whose hash tag puts them in
 * one Redis Cluster slot; entry ids are the scoped SHA-256 hashes, never raw keys.</li>
 * <li><b>Failures.</b> Any Redis failure becomes an {@link IdempotencyStoreException}; a
 * failed {@code begin} makes the request fail closed. A failed completion leaves the
 * entry in flight until its lease lapses, then a tombstone: never a second
 * execution.</li>
 * </ul>
 */
public final class RedisIdempotencyStore implements IdempotencyStore {

	private static final Log logger = LogFactory.getLog(RedisIdempotencyStore.class);

	private static final RedisScript<List> BEGIN = script("begin.lua");

	private static final RedisScript<List> COMPLETE = script("complete.lua");

	private static final RedisScript<List> TOMBSTONE = script("tombstone.lua");

	private static final RedisScript<List> RELEASE = script("release.lua");

	private static final RedisScript<List> RENEW = script("renew.lua");

	private static final RedisScript<List> STATS = script("stats.lua");

	private static final RedisScript<List> CLEAR = script("clear.lua");

	private static final RedisScript<List> END_FENCE = script("endfence.lua");

	private static final RedisScript<List> EVICTED = script("evicted.lua");

	private static final byte[] BEGIN_SOURCE = BEGIN.getScriptAsString().getBytes(StandardCharsets.UTF_8);

	private static final RedisSerializer<String> ARGUMENTS = new StringRedisSerializer(StandardCharsets.ISO_8859_1);

	private final StringRedisTemplate redis;

	private final IdempotencyProperties.Redis properties;

	private final IdempotencyProperties.Limits limits;

	private final GatewayClock clock;

	private final MeterRegistry meterRegistry;

	private final ConcurrentMap<String, Timer> timers = new ConcurrentHashMap<>();

	private final List<String> prefix;

	/** The entries this replica is running, by id: it renews their leases. */
	private final Map<String, IdempotencyEntry> running = new ConcurrentHashMap<>();

	private final StoreContinuity continuity;

	private final Duration fenceLength;

	private final RedisEvictions evictions;

	private final ReentrantLock adopting = new ReentrantLock();

	/**
	 * @param fence how long the store refuses keys it does not hold after it lost data
	 * (ADR 0025): the longest time a forgotten key could still come back
	 */
	public RedisIdempotencyStore(StringRedisTemplate redis, IdempotencyProperties.Redis properties, Duration fence,
			GatewayClock clock, MeterRegistry meterRegistry) {
		this.redis = redis;
		this.properties = properties;
		this.limits = properties.limits();
		this.clock = clock;
		this.meterRegistry = meterRegistry;
		this.prefix = List.of(properties.keyPrefix());
		this.fenceLength = fence;
		this.continuity = new StoreContinuity(fence.toMillis());
		this.evictions = new RedisEvictions(redis);
		Gauge.builder(RedisStoreMeters.FENCE_REMAINING, this, RedisIdempotencyStore::fenceRemainingSeconds)
			.baseUnit("seconds")
			.register(meterRegistry);
	}

	@Override
	public BeginResult begin(IdempotencyEntry entry) {
		Begun begun = begin("begin", entry, false);
		List<byte[]> answer = begun.answer();
		String outcome = text(answer.get(0));
		return switch (outcome) {
			case "started" -> started(entry, begun.acknowledged());
			case "replay" -> new BeginResult.Replay(new StoredReply(Integer.parseInt(text(answer.get(1))),
					emptyToNull(new String(answer.get(2), StandardCharsets.ISO_8859_1)), answer.get(3)));
			case "conflict" -> new BeginResult.Refused(Refusal.CONFLICT);
			case "in_flight" -> new BeginResult.Refused(Refusal.IN_FLIGHT);
			case "outcome_unknown" -> new BeginResult.Refused(Refusal.OUTCOME_UNKNOWN);
			case "not_replayable" -> new BeginResult.Refused(Refusal.NOT_REPLAYABLE);
			case "capacity" -> BeginResult.Refused.capacity(limit(answer));
			case "fenced" -> BeginResult.Refused.fenced(fenceRemaining());
			default -> throw new IllegalStateException("Unexpected store answer " + outcome);
		};
	}

	/**
	 * A started key: the call runs, unless fewer replicas than {@code wait-for-replicas}
	 * acknowledged its {@code begin}; then it is given back and the call refused.
	 */
	private BeginResult started(IdempotencyEntry entry, long acknowledged) {
		this.running.put(entry.entryKey(), entry);
		if (acknowledged < this.properties.waitForReplicas()) {
			Counter.builder(RedisStoreMeters.UNREPLICATED).register(this.meterRegistry).increment();
			release(entry);
			return new BeginResult.Refused(Refusal.UNREPLICATED);
		}
		return new BeginResult.Started();
	}

	/**
	 * Runs {@code begin.lua} for {@code entry} (to create it again, past the fence and
	 * the quotas, when {@code adopt}) and takes in what it says of the store's
	 * continuity. With {@code wait-for-replicas}, a begin waits for the replicas on the
	 * same connection ({@link #replicated}).
	 */
	private Begun begin(String operation, IdempotencyEntry entry, boolean adopt) {
		long now = now();
		List<Object> args = new ArrayList<>(
				List.of(entry.entryKey(), entry.requestHash(), entry.scopeId(), entry.principalId(), entry.humanId(),
						now, millis(this.limits.ttl()), millis(this.properties.lease()), this.limits.maxEntries(),
						this.limits.maxInFlight(), this.limits.maxEntriesPerScope(), this.limits.maxInFlightPerScope(),
						this.limits.maxEntriesPerPrincipal(), this.limits.maxInFlightPerPrincipal(),
						this.limits.maxTombstonesPerScope(), this.limits.maxEntriesPerHuman(),
						this.limits.maxInFlightPerHuman(), this.limits.maxTombstonesPerHuman()));
		args.addAll(this.continuity.arguments(now));
		args.add(adopt ? "1" : "0");
		if (adopt || this.properties.waitForReplicas() == 0) {
			return new Begun(continued(run(operation, BEGIN, args.toArray()), !adopt), Long.MAX_VALUE);
		}
		Begun replicated = replicated(args.toArray());
		return new Begun(continued(replicated.answer(), true), replicated.acknowledged());
	}

	/**
	 * {@code begin.lua}, then Redis {@code WAIT} for {@code wait-for-replicas}, pipelined
	 * on one connection of its own: {@code WAIT} counts the replicas that have the writes
	 * its own connection made, and blocks that connection meanwhile, which must not be
	 * the connection every other command shares.
	 */
	private Begun replicated(Object[] args) {
		long start = this.clock.nanoTime();
		String result = "ok";
		try {
			Object[] encoded = encode(args);
			byte[][] keysAndArgs = new byte[encoded.length + 1][];
			keysAndArgs[0] = this.prefix.get(0).getBytes(StandardCharsets.ISO_8859_1);
			for (int i = 0; i < encoded.length; i++) {
				keysAndArgs[i + 1] = ((String) encoded[i]).getBytes(StandardCharsets.ISO_8859_1);
			}
			byte[] replicas = Long.toString(this.properties.waitForReplicas()).getBytes(StandardCharsets.US_ASCII);
			byte[] timeout = Long.toString(this.properties.waitTimeout().toMillis())
				.getBytes(StandardCharsets.US_ASCII);
			List<Object> results;
			try (RedisConnection connection = this.redis.getRequiredConnectionFactory().getConnection()) {
				connection.openPipeline();
				connection.scriptingCommands().eval(BEGIN_SOURCE, ReturnType.MULTI, 1, keysAndArgs);
				waitFor(connection, replicas, timeout);
				results = connection.closePipeline();
			}
			@SuppressWarnings("unchecked")
			List<byte[]> answer = (List<byte[]>) results.get(0);
			return new Begun(answer, ((Number) results.get(1)).longValue());
		}
		catch (DataAccessException | IllegalStateException | ClassCastException ex) {
			result = "error";
			throw new IdempotencyStoreException("Idempotency store begin failed: " + ex.getClass().getSimpleName(), ex);
		}
		finally {
			timer("begin", result).record(this.clock.nanoTime() - start, TimeUnit.NANOSECONDS);
		}
	}

	/**
	 * Sends {@code WAIT} on {@code connection}: Lettuce's generic command reads replies
	 * as bytes and needs to be told that this one is an integer.
	 */
	private static void waitFor(RedisConnection connection, byte[] replicas, byte[] timeout) {
		if (connection instanceof LettuceConnection lettuce) {
			lettuce.execute("WAIT", new IntegerOutput<>(ByteArrayCodec.INSTANCE), replicas, timeout);
		}
		else {
			connection.execute("WAIT", replicas, timeout);
		}
	}

	/**
	 * A begin's answer (after its continuity header, once taken in) and how many replicas
	 * acknowledged its writes ({@link Long#MAX_VALUE} when none was waited for).
	 */
	private record Begun(List<byte[]> answer, long acknowledged) {
	}

	/**
	 * The answer after its continuity header, once what the header says is acted on: a
	 * loss the store detected in this round trip is counted, and when data this replica
	 * relied on is gone, the calls it is still running get their entries back.
	 */
	private List<byte[]> continued(List<byte[]> answer, boolean mayAdopt) {
		StoreContinuity.Seen seen = this.continuity.seen(answer);
		if (!seen.detected().isEmpty()) {
			logger.warn("The idempotency store lost data (" + seen.detected()
					+ "): keys it does not hold are refused for " + fenceRemaining().toSeconds() + " s");
			Counter.builder(RedisStoreMeters.LOSSES)
				.tag("cause", seen.detected())
				.register(this.meterRegistry)
				.increment();
		}
		if (seen.lost() && mayAdopt) {
			adoptRunning();
		}
		return answer.subList(StoreContinuity.HEADER, answer.size());
	}

	/**
	 * Creates the entries of the calls this replica is still running again, in flight, in
	 * the store that lost them: their retries are told they are in flight, and their
	 * outcome is recorded as usual. One replica thread at a time.
	 */
	private void adoptRunning() {
		if (!this.adopting.tryLock()) {
			return;
		}
		try {
			for (IdempotencyEntry entry : List.copyOf(this.running.values())) {
				begin("adopt", entry, true);
			}
		}
		finally {
			this.adopting.unlock();
		}
	}

	/** How long a fence lasts from the loss's detection. */
	public Duration fenceLength() {
		return this.fenceLength;
	}

	private Duration fenceRemaining() {
		return Duration.ofMillis(Math.max(0, this.continuity.fencedUntil() - now()));
	}

	private double fenceRemainingSeconds() {
		return fenceRemaining().toMillis() / 1000.0;
	}

	@Override
	public void complete(IdempotencyEntry entry, StoredReply reply, Duration atLeast) {
		this.running.remove(entry.entryKey());
		long now = now();
		run("complete", COMPLETE, entry.entryKey(), entry.requestHash(), now, reply.status(),
				(reply.contentType() != null) ? reply.contentType() : "", reply.body(), keepUntil(now, atLeast));
	}

	@Override
	public void tombstone(IdempotencyEntry entry, TombstoneKind kind, Duration atLeast) {
		this.running.remove(entry.entryKey());
		long now = now();
		run("tombstone", TOMBSTONE, entry.entryKey(), entry.requestHash(), now,
				(kind == TombstoneKind.OUTCOME_UNKNOWN) ? "u" : "n", keepUntil(now, atLeast));
	}

	/**
	 * When an entry kept {@code atLeast} expires: 0 for the TTL (the scripts' completion
	 * queue), else an instant in epoch milliseconds (their expiry queue).
	 */
	private long keepUntil(long now, Duration atLeast) {
		return (atLeast.compareTo(this.limits.ttl()) > 0) ? now + atLeast.toMillis() : 0;
	}

	@Override
	public @Nullable StoreFence fence() {
		List<byte[]> counts = run("stats", STATS, now(), millis(this.limits.ttl()));
		long until = Long.parseLong(text(counts.get(7)));
		if (until <= now()) {
			return null;
		}
		return new StoreFence(Instant.ofEpochMilli(Long.parseLong(text(counts.get(8)))), Instant.ofEpochMilli(until),
				text(counts.get(9)));
	}

	@Override
	public boolean endFence() {
		return "ended".equals(text(run("endfence", END_FENCE, now()).get(0)));
	}

	@Override
	public void release(IdempotencyEntry entry) {
		this.running.remove(entry.entryKey());
		run("release", RELEASE, entry.entryKey(), entry.requestHash());
	}

	@Override
	public IdempotencyStats stats() {
		List<byte[]> counts = run("stats", STATS, now(), millis(this.limits.ttl()));
		return new IdempotencyStats(count(counts, 0), count(counts, 1), count(counts, 2), count(counts, 3),
				Long.parseLong(text(counts.get(4))), count(counts, 5), count(counts, 6));
	}

	@Override
	public boolean clearTombstone(String keyHash) {
		return "ok".equals(text(run("clear", CLEAR, keyHash).get(0)));
	}

	/**
	 * Extends the leases of the calls this replica is still running; run even when it
	 * runs none, since it is also how the replica learns of a loss of the store's data
	 * and of the fence's end.
	 */
	public void renewLeases() {
		long now = now();
		List<Object> args = new ArrayList<>();
		args.add(now);
		args.add(millis(this.properties.lease()));
		args.addAll(this.continuity.arguments(now));
		args.addAll(this.running.keySet());
		try {
			continued(run("renew", RENEW, args.toArray()), true);
			if (this.evictions.sinceLastLook()) {
				List<Object> evicted = new ArrayList<>();
				evicted.add(now);
				evicted.addAll(this.continuity.arguments(now));
				continued(run("evicted", EVICTED, evicted.toArray()), true);
			}
		}
		catch (IdempotencyStoreException | DataAccessException ex) {
			// Redis is out of reach: the health component and the failed begins say so;
			// the
			// leases lapse only if this lasts longer than they do.
			logger.debug(ex.getMessage());
		}
	}

	/** Whether Redis answers at all, for health. */
	public boolean ping() {
		try {
			return "PONG"
				.equalsIgnoreCase(this.redis.execute((RedisCallback<String>) (connection) -> connection.ping()));
		}
		catch (DataAccessException ex) {
			return false;
		}
	}

	private List<byte[]> run(String operation, RedisScript<List> script, Object... args) {
		long start = this.clock.nanoTime();
		String result = "ok";
		try {
			@SuppressWarnings("unchecked")
			List<byte[]> answer = this.redis.execute(script, ARGUMENTS, rawBytes(), this.prefix, encode(args));
			if (answer == null || answer.isEmpty()) {
				throw new IllegalStateException("Empty answer from the idempotency store script " + operation);
			}
			return answer;
		}
		catch (DataAccessException | IllegalStateException ex) {
			result = "error";
			throw new IdempotencyStoreException(
					"Idempotency store " + operation + " failed: " + ex.getClass().getSimpleName(), ex);
		}
		finally {
			timer(operation, result).record(this.clock.nanoTime() - start, TimeUnit.NANOSECONDS);
		}
	}

	/** The timer of an operation and result, registered on first use. */
	private Timer timer(String operation, String result) {
		return this.timers.computeIfAbsent(operation + "/" + result,
				(key) -> Timer.builder(RedisStoreMeters.OPERATIONS)
					.tags("operation", operation, "result", result)
					.register(this.meterRegistry));
	}

	/**
	 * Script arguments as ISO-8859-1 strings, which map one char to one byte: reply
	 * bodies go to Redis byte for byte, and every other argument is ASCII.
	 */
	private static Object[] encode(Object[] args) {
		Object[] encoded = new Object[args.length];
		for (int i = 0; i < args.length; i++) {
			encoded[i] = (args[i] instanceof byte[] bytes) ? new String(bytes, StandardCharsets.ISO_8859_1)
					: String.valueOf(args[i]);
		}
		return encoded;
	}

	@SuppressWarnings({ "rawtypes", "unchecked" })
	private static RedisSerializer<List> rawBytes() {
		return (RedisSerializer) RedisSerializer.byteArray();
	}

	private long now() {
		return this.clock.millis();
	}

	private static long millis(java.time.Duration duration) {
		return duration.toMillis();
	}

	private static Limit limit(List<byte[]> result) {
		Limit limit = (result.size() > 1) ? Limit.ofTag(text(result.get(1))) : null;
		if (limit == null) {
			throw new IllegalStateException("Unexpected capacity answer from the store");
		}
		return limit;
	}

	private static int count(List<byte[]> counts, int index) {
		return Integer.parseInt(text(counts.get(index)));
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}

	private static @Nullable String emptyToNull(String value) {
		return value.isEmpty() ? null : value;
	}

	/**
	 * A transition's script, after the functions of {@code common.lua} and
	 * {@code continuity.lua}.
	 */
	private static RedisScript<List> script(String name) {
		return RedisScripts.load(List.class, "idempotency/redis/common.lua", "idempotency/redis/continuity.lua",
				"idempotency/redis/" + name);
	}

}
