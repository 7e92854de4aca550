package io.github.mcpgateway.session;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.digest.Sha256;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.redis.RedisOutage;
import io.github.mcpgateway.redis.RedisScripts;

/**
 * Session bindings in Redis ({@code gateway.session.store: redis}): every replica pointed
 * at the same Redis sees every session, and a restarted replica serves the sessions it
 * had.
 *
 * <p>
 * Design notes.
 * <ul>
 * <li><b>Keys.</b> One string key per binding, {@code <prefix><sha256(session id)>}; the
 * value is the server identity and the principal ({@link SessionBindingJson}). The raw
 * session id is never stored.</li>
 * <li><b>Idle timeout.</b> The key's TTL. A use by the owner renews it only when it is
 * older than the touch interval (one read per request with a session, one more write at
 * most once per interval), so a session lives between {@code idle-timeout} minus the
 * interval and {@code idle-timeout} after its last use.</li>
 * <li><b>Clocks</b> (the rule of docs/architecture.md, "Clocks and Redis"). A binding's
 * life is its key's TTL, counted by Redis: the gateway only sends the idle timeout and
 * reads the remaining TTL, so no replica's clock can extend or cut a session. The
 * per-human sets are scored with the gateway clock's wall-clock milliseconds, compared
 * only with other such scores; skew between replicas only changes which of a human's
 * bindings counts as oldest. The recovery window is {@link RedisOutage}'s, on the gateway
 * clock's monotonic reading.</li>
 * <li><b>Redis down</b> ({@link RedisOutage}). A read fails and the request that carried
 * the session fails closed ({@link SessionStoreException}). A binding made while Redis is
 * down (the {@code initialize} itself goes through) is kept in this replica's memory and
 * written once Redis answers again (by the next use of the session here, or the
 * maintenance task within a second). Another replica cannot tell such a session from an
 * unknown one, so for {@link RedisOutage#RECOVERY} after this replica last saw Redis
 * fail, an unknown session is answered as "store unavailable" (503, the client retries)
 * rather than "not found" (404, the client would start over); the maintenance task pings
 * Redis when it has nothing to write, so that every replica sees a failure within a
 * second. If the replica that made a binding stops before Redis is back, the session is
 * lost (404, the client initializes again). Pending bindings are bounded by
 * {@code gateway.session.max-bindings}.</li>
 * <li><b>Sessions per human.</b> Beside the bindings, one sorted set per human,
 * {@code <prefix>human:<sha256(human)>}, holds the keys of that human's bindings scored
 * by the time of their binding or last touch. The binding and its entry are written by
 * one script ({@code session/redis/bind.lua}), which also forgets entries idle past the
 * timeout and, past {@code gateway.session.max-per-principal}, deletes that human's
 * oldest bindings (and no one else's); a touch moves the entry, a removal takes it out.
 * The set shares the key prefix's hash tag, so a cluster keeps it in the bindings' slot.
 * A binding whose human's set was lost (Redis restarted without persistence) still works;
 * it just no longer counts until it is bound again.</li>
 * </ul>
 */
final class RedisSessionStore implements SessionStore {

	/** Gauge: bindings made while Redis was unreachable, not yet written. */
	static final String PENDING = "mcp.gateway.sessions.store.pending";

	/** Counter of failed Redis operations, tagged {@code operation}. */
	static final String ERRORS = "mcp.gateway.sessions.store.errors";

	/** Value and remaining TTL in one round trip; an empty list for no key. */
	private static final RedisScript<List> READ = RedisScripts.load(List.class, "session/redis/read.lua");

	/** Binds and records the binding in its human's set: {added, dropped}. */
	private static final RedisScript<List> BIND = RedisScripts.load(List.class, "session/redis/bind.lua");

	private static final RedisCallback<String> PING = RedisConnection::ping;

	private final StringRedisTemplate redis;

	private final String keyPrefix;

	private final Duration idleTimeout;

	private final Duration touchInterval;

	private final int maxPerPrincipal;

	private final Counter droppedByCap;

	/**
	 * Bindings made while Redis was unreachable (Redis key to value), the recovery
	 * window, the error counters.
	 */
	private final RedisOutage<String> outage;

	private final GatewayClock clock;

	RedisSessionStore(StringRedisTemplate redis, SessionProperties properties, MeterRegistry meterRegistry,
			GatewayClock clock) {
		this.redis = redis;
		this.clock = clock;
		this.keyPrefix = properties.redis().keyPrefix();
		this.idleTimeout = properties.idleTimeout();
		this.touchInterval = properties.redis().touchInterval();
		this.maxPerPrincipal = properties.maxPerPrincipal();
		this.droppedByCap = meterRegistry.counter(SessionMeters.EVENTS, "event",
				SessionEvent.Type.DROPPED_PRINCIPAL_CAP.name().toLowerCase(Locale.ROOT));
		this.outage = new RedisOutage<>(new RedisOutage.Names(RedisSessionStore.class, "Session store", PENDING, ERRORS,
				List.of("bind", "use", "remove", "maintain")), properties.maxBindings(), meterRegistry, clock);
	}

	@Override
	public boolean bind(String sessionId, SessionBinding binding) {
		String key = key(sessionId);
		String value = SessionBindingJson.encode(binding);
		try {
			return write(key, value);
		}
		catch (DataAccessException ex) {
			this.outage.failed("bind", ex);
			this.outage.keep(key, value, "a new session is not bound; its client will get 404");
			return true;
		}
	}

	@Override
	public @Nullable SessionBinding use(String sessionId, SessionBinding owner) {
		String key = key(sessionId);
		try {
			List<?> found = this.redis.execute(READ, List.of(key));
			if (found == null || found.isEmpty()) {
				return pendingOrUnknown(key);
			}
			SessionBinding binding = SessionBindingJson.decode((String) found.get(0));
			long ttlMillis = ((Number) found.get(1)).longValue();
			if (binding != null && binding.sameOwner(owner) && ttlMillis >= 0
					&& this.idleTimeout.toMillis() - ttlMillis >= this.touchInterval.toMillis()) {
				touch(key, binding);
			}
			return binding;
		}
		catch (DataAccessException ex) {
			this.outage.failed("use", ex);
			throw new SessionStoreException("Session store read failed: " + ex.getClass().getSimpleName(), ex);
		}
	}

	private @Nullable SessionBinding pendingOrUnknown(String key) {
		return SessionBindingJson.decode(this.outage.pendingOrUnknown(key, this::write,
				() -> new SessionStoreException("Session store recovering: an unknown session may be pending", null)));
	}

	/**
	 * Renews the idle timeout of a binding and of its human's set, and moves its entry.
	 */
	private void touch(String key, SessionBinding binding) {
		this.redis.expire(key, this.idleTimeout);
		String human = humanKey(binding);
		if (human != null) {
			this.redis.opsForZSet().add(human, key, this.clock.millis());
			this.redis.expire(human, this.idleTimeout);
		}
	}

	@Override
	public @Nullable SessionBinding remove(String sessionId) {
		String key = key(sessionId);
		String local = this.outage.forget(key);
		try {
			String value = this.redis.opsForValue().getAndDelete(key);
			SessionBinding binding = SessionBindingJson.decode((value != null) ? value : local);
			String human = (binding != null) ? humanKey(binding) : null;
			if (human != null) {
				this.redis.opsForZSet().remove(human, key);
			}
			return binding;
		}
		catch (DataAccessException ex) {
			// The binding stays until its TTL; the upstream no longer knows the session,
			// so its next use gets the upstream's 404 and is removed then.
			this.outage.failed("remove", ex);
			return SessionBindingJson.decode(local);
		}
	}

	@Override
	public long size() {
		return -1;
	}

	@Override
	public String type() {
		return "redis";
	}

	/**
	 * Writes the bindings made while Redis was unreachable or, with none, pings Redis so
	 * that this replica notices an outage even without traffic. Run every second.
	 */
	void maintain() {
		this.outage.maintain(this::write, () -> this.redis.execute(PING));
	}

	/** Whether Redis answers, for health. */
	boolean ping() {
		try {
			return "PONG".equalsIgnoreCase(this.redis.execute(PING));
		}
		catch (DataAccessException ex) {
			return false;
		}
	}

	int pending() {
		return this.outage.size();
	}

	/** Binds unless bound; returns whether this call bound it. */
	private boolean write(String key, String value) {
		SessionBinding binding = SessionBindingJson.decode(value);
		String human = (binding != null) ? humanKey(binding) : null;
		List<?> result = this.redis.execute(BIND, List.of(key, (human != null) ? human : key), value,
				Long.toString(this.idleTimeout.toMillis()), Long.toString(this.clock.millis()),
				Integer.toString(this.maxPerPrincipal), (human != null) ? "1" : "0");
		long dropped = (result != null && result.size() == 2) ? ((Number) result.get(1)).longValue() : 0;
		if (dropped > 0) {
			this.droppedByCap.increment(dropped);
		}
		return result != null && !result.isEmpty() && ((Number) result.get(0)).longValue() == 1;
	}

	/** The key of the set of {@code binding}'s human, or {@code null} for none. */
	private @Nullable String humanKey(SessionBinding binding) {
		McpPrincipal principal = binding.principal();
		return (principal != null) ? this.keyPrefix + "human:" + sha256("mcp-session-human/v1\0", principal.human())
				: null;
	}

	private String key(String sessionId) {
		return this.keyPrefix + sha256("mcp-session/v1\0", sessionId);
	}

	private static String sha256(String domain, String value) {
		return Sha256.hex(domain + value);
	}

}
