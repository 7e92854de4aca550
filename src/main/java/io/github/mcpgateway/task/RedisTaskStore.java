package io.github.mcpgateway.task;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * Task bindings in Redis ({@code gateway.session.store: redis}): every replica pointed at
 * the same Redis serves every task, and a restarted replica serves the tasks it bound.
 *
 * <p>
 * Design notes.
 * <ul>
 * <li><b>Keys</b>, all under {@code key-prefix} (whose hash tag puts them in one cluster
 * slot): {@code b:<task key>} holds a binding (JSON, with a Redis TTL to its expiry);
 * {@code q:<principal key>} and {@code g} are sorted sets of the live bindings and open
 * reservations of a principal and of everyone, scored by their expiry, which the caps
 * count. Task and principal keys are SHA-256 hashes ({@link TaskKeys}); no raw task id is
 * stored. {@code cursor-secret} holds the secret that seals {@code tasks/list} cursors
 * (Base64 of 32 random bytes, no TTL), written by the first replica that needs it; read
 * on every {@code tasks/list} that carries or receives a cursor, so deleting it
 * invalidates every outstanding cursor at once on every replica.</li>
 * <li><b>Atomic caps.</b> A reservation is one script: drop what expired, count, add; so
 * replicas reserving at once never pass a cap together. A reservation's score is its
 * lease: a replica that dies mid-call does not hold the place for ever.</li>
 * <li><b>Time is the caller's clock</b>, as in the Idempotency-Key store.</li>
 * <li><b>Redis down.</b> {@code reserve}, {@code find} and {@code owned} fail and the
 * request fails closed (503, nothing upstream). A binding the upstream's answer makes
 * while Redis is down is kept in this replica's memory (bounded) and written by the
 * maintenance task once Redis answers (within a second): the reply reaches its client,
 * and the task becomes reachable from every replica once Redis is back. For
 * {@link #RECOVERY} after this replica saw Redis fail, an unknown task is answered "store
 * unavailable" (503, retry) rather than "not found", so that a binding still pending on
 * another replica is not reported missing. If this replica stops before Redis is back,
 * the pending binding is lost: the task is then unreachable through the gateway (never
 * reachable by anyone else).</li>
 * </ul>
 */
final class RedisTaskStore implements TaskStore {

	private static final Log logger = LogFactory.getLog(RedisTaskStore.class);

	/** Gauge: bindings made while Redis was unreachable, not yet written. */
	static final String PENDING = "mcp.gateway.tasks.store.pending";

	/** Counter of failed Redis operations, tagged {@code operation}. */
	static final String ERRORS = "mcp.gateway.tasks.store.errors";

	/**
	 * How long after a failure an unknown task is answered "store unavailable" rather
	 * than "not found".
	 */
	static final Duration RECOVERY = Duration.ofSeconds(5);

	/** ARGV: principal key, reservation id, now, lease ms, max per principal, max. */
	private static final RedisScript<Long> RESERVE = RedisScript.of("""
			local q, g = KEYS[1] .. 'q:' .. ARGV[1], KEYS[1] .. 'g'
			local now = tonumber(ARGV[3])
			redis.call('ZREMRANGEBYSCORE', q, '-inf', now)
			redis.call('ZREMRANGEBYSCORE', g, '-inf', now)
			if redis.call('ZCARD', g) >= tonumber(ARGV[6]) or redis.call('ZCARD', q) >= tonumber(ARGV[5]) then
			  return 0
			end
			local member = 'r:' .. ARGV[2]
			redis.call('ZADD', q, now + tonumber(ARGV[4]), member)
			redis.call('ZADD', g, now + tonumber(ARGV[4]), member)
			return 1
			""", Long.class);

	/**
	 * ARGV: principal key, reservation id, task key, value, ttl ms, expires at. Keeps a
	 * binding that exists (first owner).
	 */
	private static final RedisScript<Long> BIND = RedisScript.of("""
			local q, g = KEYS[1] .. 'q:' .. ARGV[1], KEYS[1] .. 'g'
			local member = 'r:' .. ARGV[2]
			redis.call('ZREM', q, member)
			redis.call('ZREM', g, member)
			local b = KEYS[1] .. 'b:' .. ARGV[3]
			if redis.call('EXISTS', b) == 1 then
			  return 0
			end
			redis.call('SET', b, ARGV[4], 'PX', ARGV[5])
			redis.call('ZADD', q, tonumber(ARGV[6]), ARGV[3])
			redis.call('ZADD', g, tonumber(ARGV[6]), ARGV[3])
			return 1
			""", Long.class);

	/** ARGV: principal key, reservation id. */
	private static final RedisScript<Long> RELEASE = RedisScript.of("""
			local member = 'r:' .. ARGV[2]
			redis.call('ZREM', KEYS[1] .. 'q:' .. ARGV[1], member)
			return redis.call('ZREM', KEYS[1] .. 'g', member)
			""", Long.class);

	/**
	 * KEYS: the secret's key; ARGV: a new secret, written only if there is none. The
	 * secret in Redis, whoever wrote it.
	 */
	private static final RedisScript<String> CURSOR_SECRET = RedisScript.of("""
			redis.call('SET', KEYS[1], ARGV[1], 'NX')
			return redis.call('GET', KEYS[1])
			""", String.class);

	private final StringRedisTemplate redis;

	private final Clock clock;

	private final String prefix;

	private final long leaseMillis;

	private final int maxPerPrincipal;

	private final int maxBindings;

	private final int maxPending;

	/** Task key to the binding made while Redis was unreachable. */
	private final ConcurrentMap<String, Pending> pending = new ConcurrentHashMap<>();

	private final Map<String, Counter> errors = new ConcurrentHashMap<>();

	/** {@link Clock#millis()} of the last failed Redis operation; 0 for none yet. */
	private volatile long lastFailure;

	RedisTaskStore(StringRedisTemplate redis, TaskProperties properties, Clock clock, MeterRegistry meterRegistry) {
		this.redis = redis;
		this.clock = clock;
		this.prefix = properties.redis().keyPrefix();
		this.leaseMillis = properties.redis().reservationLease().toMillis();
		this.maxPerPrincipal = properties.maxBindingsPerPrincipal();
		this.maxBindings = properties.maxBindings();
		this.maxPending = Math.min(properties.maxBindings(), 10_000);
		Gauge.builder(PENDING, this.pending, Map::size).register(meterRegistry);
		for (String operation : new String[] { "reserve", "bind", "release", "find", "maintain", "cursor" }) {
			this.errors.put(operation, meterRegistry.counter(ERRORS, "operation", operation));
		}
	}

	@Override
	public @Nullable Reservation reserve(McpPrincipal principal) {
		Reservation reservation = new Reservation(UUID.randomUUID().toString(), TaskKeys.principal(principal));
		try {
			Long reserved = this.redis.execute(RESERVE, List.of(this.prefix), reservation.principal(), reservation.id(),
					Long.toString(this.clock.millis()), Long.toString(this.leaseMillis),
					Integer.toString(this.maxPerPrincipal), Integer.toString(this.maxBindings));
			return (reserved != null && reserved == 1) ? reservation : null;
		}
		catch (DataAccessException ex) {
			throw failure("reserve", ex);
		}
	}

	@Override
	public void bind(Reservation reservation, String taskId, TaskBinding binding) {
		String key = TaskKeys.task(binding.server(), taskId);
		Pending write = new Pending(reservation, TaskBindingJson.encode(binding), binding.expiresAt());
		try {
			write(key, write);
		}
		catch (DataAccessException ex) {
			failure("bind", ex);
			if (this.pending.size() < this.maxPending) {
				this.pending.putIfAbsent(key, write);
			}
			else {
				logger.warn("Task store unreachable and " + this.maxPending
						+ " bindings already pending: a new task is not bound and cannot be reached through the gateway");
			}
		}
	}

	@Override
	public void release(Reservation reservation) {
		try {
			this.redis.execute(RELEASE, List.of(this.prefix), reservation.principal(), reservation.id());
		}
		catch (DataAccessException ex) {
			// The reservation's lease ends it.
			failure("release", ex);
		}
	}

	@Override
	public @Nullable TaskBinding find(String server, String taskId) {
		String key = TaskKeys.task(server, taskId);
		Pending local = this.pending.get(key);
		if (local != null) {
			return TaskBindingJson.decode(local.value(), this.clock.instant());
		}
		String value;
		try {
			value = this.redis.opsForValue().get(this.prefix + "b:" + key);
		}
		catch (DataAccessException ex) {
			throw failure("find", ex);
		}
		if (value == null && recovering()) {
			throw new TaskStoreException("Task store recovering: an unknown task may be pending", null);
		}
		return TaskBindingJson.decode(value, this.clock.instant());
	}

	@Override
	public Set<String> owned(String server, McpPrincipal principal, Collection<String> taskIds) {
		List<String> ids = new ArrayList<>(taskIds);
		List<String> keys = new ArrayList<>(ids.size());
		for (String taskId : ids) {
			keys.add(this.prefix + "b:" + TaskKeys.task(server, taskId));
		}
		List<String> values;
		try {
			values = this.redis.opsForValue().multiGet(keys);
		}
		catch (DataAccessException ex) {
			throw failure("find", ex);
		}
		Instant now = this.clock.instant();
		Set<String> owned = new HashSet<>();
		for (int i = 0; i < ids.size(); i++) {
			Pending local = this.pending.get(TaskKeys.task(server, ids.get(i)));
			String value = (local != null) ? local.value() : (values != null) ? values.get(i) : null;
			TaskBinding binding = TaskBindingJson.decode(value, now);
			if (binding != null && binding.ownedBy(server, principal)) {
				owned.add(ids.get(i));
			}
		}
		return owned;
	}

	@Override
	public byte[] cursorSecret() {
		String secret;
		try {
			secret = this.redis.execute(CURSOR_SECRET, List.of(this.prefix + "cursor-secret"),
					Base64.getEncoder().encodeToString(TaskCursor.newSecret()));
		}
		catch (DataAccessException ex) {
			throw failure("cursor", ex);
		}
		try {
			byte[] bytes = (secret != null) ? Base64.getDecoder().decode(secret) : new byte[0];
			if (bytes.length == TaskCursor.SECRET_BYTES) {
				return bytes;
			}
		}
		catch (IllegalArgumentException ex) {
			// Not Base64: reported below.
		}
		throw new TaskStoreException("Task store cursor secret is not " + TaskCursor.SECRET_BYTES
				+ " bytes in Base64: delete " + this.prefix + "cursor-secret", null);
	}

	@Override
	public long size() {
		try {
			Long count = this.redis.opsForZSet()
				.count(this.prefix + "g", this.clock.millis(), Double.POSITIVE_INFINITY);
			return (count != null) ? count : -1;
		}
		catch (DataAccessException ex) {
			return -1;
		}
	}

	@Override
	public String type() {
		return "redis";
	}

	/**
	 * Writes the bindings made while Redis was unreachable. Run every second by the
	 * maintenance task.
	 */
	void maintain() {
		for (Map.Entry<String, Pending> entry : this.pending.entrySet()) {
			try {
				write(entry.getKey(), entry.getValue());
				this.pending.remove(entry.getKey(), entry.getValue());
			}
			catch (DataAccessException ex) {
				failure("maintain", ex);
				return;
			}
		}
	}

	int pending() {
		return this.pending.size();
	}

	private void write(String key, Pending write) {
		long ttl = write.expiresAt().toEpochMilli() - this.clock.millis();
		if (ttl <= 0) {
			release(write.reservation());
			return;
		}
		this.redis.execute(BIND, List.of(this.prefix), write.reservation().principal(), write.reservation().id(), key,
				write.value(), Long.toString(ttl), Long.toString(write.expiresAt().toEpochMilli()));
	}

	private boolean recovering() {
		long failure = this.lastFailure;
		return failure != 0 && this.clock.millis() - failure < RECOVERY.toMillis();
	}

	private TaskStoreException failure(String operation, DataAccessException ex) {
		this.lastFailure = this.clock.millis();
		this.errors.get(operation).increment();
		if (logger.isDebugEnabled()) {
			logger.debug("Task store " + operation + " failed", ex);
		}
		return new TaskStoreException("Task store " + operation + " failed: " + ex.getClass().getSimpleName(), ex);
	}

	private record Pending(Reservation reservation, String value, Instant expiresAt) {
	}

}
