package io.github.mcpgateway.task;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.redis.RedisOutage;
import io.github.mcpgateway.redis.RedisScripts;

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
 * <li><b>Clocks</b> (the rule of docs/architecture.md, "Clocks and Redis"). The gateway
 * clock's wall-clock milliseconds, sent as an argument, as in the Idempotency-Key store:
 * a binding's expiry is an instant the gateway shows (the task's {@code ttl}) and the
 * caps' sorted sets are scored with it, so every replica and the in-memory store count
 * the same way and a test clock moves them all; the binding key's TTL is set from it
 * (expiry minus now) only so that Redis drops what no one reads. Skew between replicas
 * (NTP: milliseconds) moves an expiry by as much. The recovery window is
 * {@link RedisOutage}'s, on the gateway clock's monotonic reading.</li>
 * <li><b>Redis down</b> ({@link RedisOutage}). {@code reserve}, {@code find} and
 * {@code owned} fail and the request fails closed (503, nothing upstream). A binding the
 * upstream's answer makes while Redis is down is kept in this replica's memory (bounded)
 * and written by the maintenance task once Redis answers (within a second): the reply
 * reaches its client, and the task becomes reachable from every replica once Redis is
 * back. For {@link RedisOutage#RECOVERY} after this replica saw Redis fail, an unknown
 * task is answered "store unavailable" (503, retry) rather than "not found", so that a
 * binding still pending on another replica is not reported missing. If this replica stops
 * before Redis is back, the pending binding is lost: the task is then unreachable through
 * the gateway (never reachable by anyone else).</li>
 * </ul>
 */
final class RedisTaskStore implements TaskStore {

	/** Gauge: bindings made while Redis was unreachable, not yet written. */
	static final String PENDING = "mcp.gateway.tasks.store.pending";

	/** Counter of failed Redis operations, tagged {@code operation}. */
	static final String ERRORS = "mcp.gateway.tasks.store.errors";

	/** A place under both caps, or none: 1 or 0. */
	private static final RedisScript<Long> RESERVE = RedisScripts.load(Long.class, "task/redis/reserve.lua");

	/** A reservation turned into a binding; an existing binding is kept (first owner). */
	private static final RedisScript<Long> BIND = RedisScripts.load(Long.class, "task/redis/bind.lua");

	private static final RedisScript<Long> RELEASE = RedisScripts.load(Long.class, "task/redis/release.lua");

	/** The secret in Redis, whoever wrote it. */
	private static final RedisScript<String> CURSOR_SECRET = RedisScripts.load(String.class,
			"task/redis/cursor-secret.lua");

	private final StringRedisTemplate redis;

	private final GatewayClock clock;

	private final String prefix;

	private final long leaseMillis;

	private final int maxPerPrincipal;

	private final int maxBindings;

	/**
	 * Bindings made while Redis was unreachable (task key to binding), the recovery
	 * window, the error counters.
	 */
	private final RedisOutage<Pending> outage;

	RedisTaskStore(StringRedisTemplate redis, TaskProperties properties, GatewayClock clock,
			MeterRegistry meterRegistry) {
		this.redis = redis;
		this.clock = clock;
		this.prefix = properties.redis().keyPrefix();
		this.leaseMillis = properties.redis().reservationLease().toMillis();
		this.maxPerPrincipal = properties.maxBindingsPerPrincipal();
		this.maxBindings = properties.maxBindings();
		this.outage = new RedisOutage<>(
				new RedisOutage.Names(RedisTaskStore.class, "Task store", PENDING, ERRORS,
						List.of("reserve", "bind", "release", "find", "maintain", "cursor")),
				Math.min(properties.maxBindings(), 10_000), meterRegistry, clock);
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
			this.outage.keep(key, write, "a new task is not bound and cannot be reached through the gateway");
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
		Pending local = this.outage.pending(key);
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
		if (value == null && this.outage.recovering()) {
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
			Pending local = this.outage.pending(TaskKeys.task(server, ids.get(i)));
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
		this.outage.maintain(this::write);
	}

	int pending() {
		return this.outage.size();
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

	private TaskStoreException failure(String operation, DataAccessException ex) {
		this.outage.failed(operation, ex);
		return new TaskStoreException("Task store " + operation + " failed: " + ex.getClass().getSimpleName(), ex);
	}

	private record Pending(Reservation reservation, String value, Instant expiresAt) {
	}

}
