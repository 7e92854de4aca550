package io.github.mcpgateway.virtual;

import java.time.Duration;
import java.util.List;

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
import io.github.mcpgateway.session.SessionProperties;
import io.github.mcpgateway.session.SessionStoreException;

/**
 * Virtual sessions in Redis ({@code gateway.session.store: redis}), beside the member
 * sessions' bindings: every replica pointed at the same Redis serves every request of a
 * virtual session, and a restarted replica serves the sessions it had. The conventions
 * are {@code session.RedisSessionStore}'s, so that a virtual session and the member
 * sessions under it live and die alike.
 *
 * <p>
 * Design notes.
 * <ul>
 * <li><b>Keys.</b> One string key per session,
 * {@code <gateway.session.redis.key-prefix>virtual:<sha256(session id)>}; the value is
 * {@link VirtualSessionJson}. The raw session id is never stored. The prefix's hash tag
 * keeps the key in the bindings' cluster slot.</li>
 * <li><b>Idle timeout.</b> The key's TTL, {@code gateway.session.idle-timeout}. The
 * owner's use renews it only when it is older than {@code gateway.session.redis
 * .touch-interval} (one read per request, one more write at most once per interval); a
 * stranger's look-up renews nothing. An update (a member session opened again) rewrites
 * the value with a full TTL, only if the session still exists.</li>
 * <li><b>Clocks</b> (docs/architecture.md, "Clocks and Redis", rule 3). A session's life
 * is its key's TTL, counted by Redis; the gateway sends the idle timeout and reads the
 * remaining TTL, so no replica's clock can extend or cut a session. The recovery window
 * is {@link RedisOutage}'s, on the gateway clock's monotonic reading.</li>
 * <li><b>Redis down</b> ({@link RedisOutage}). A read fails and the request fails closed
 * ({@link SessionStoreException}: 503 {@code session_store_unavailable}, rendered by
 * {@link VirtualServerFilter}). A session opened (or updated) while Redis is down is kept
 * in this replica's memory and written once Redis answers (by its next use here or the
 * maintenance task within a second); for {@link RedisOutage#RECOVERY} after this replica
 * last saw Redis fail, an unknown session is "store unavailable" rather than "not found".
 * The maintenance task pings Redis when it has nothing to write, so every replica sees an
 * outage within a second. Pending sessions are bounded by
 * {@code gateway.session.max-bindings}.</li>
 * </ul>
 */
final class RedisVirtualSessionStore implements VirtualSessionStore {

	/** Gauge: virtual sessions opened or updated while Redis was unreachable. */
	static final String PENDING = "mcp.gateway.virtual.sessions.store.pending";

	/** Counter of failed Redis operations, tagged {@code operation}. */
	static final String ERRORS = "mcp.gateway.virtual.sessions.store.errors";

	/** The segment after the session key prefix that sets virtual sessions apart. */
	static final String SEGMENT = "virtual:";

	/**
	 * Value and remaining TTL in one round trip; an empty list for no key. The session
	 * store's read, which is the same for any key.
	 */
	private static final RedisScript<List> READ = RedisScripts.load(List.class, "session/redis/read.lua");

	private static final RedisCallback<String> PING = RedisConnection::ping;

	private final VirtualSessionIds ids = new VirtualSessionIds();

	private final StringRedisTemplate redis;

	private final String keyPrefix;

	private final Duration idleTimeout;

	private final Duration touchInterval;

	/**
	 * Writes Redis could not take (Redis key to write), the recovery window, counters.
	 */
	private final RedisOutage<Write> outage;

	RedisVirtualSessionStore(StringRedisTemplate redis, SessionProperties properties, MeterRegistry meterRegistry,
			GatewayClock clock) {
		this.redis = redis;
		this.keyPrefix = properties.redis().keyPrefix() + SEGMENT;
		this.idleTimeout = properties.idleTimeout();
		this.touchInterval = properties.redis().touchInterval();
		this.outage = new RedisOutage<>(
				new RedisOutage.Names(RedisVirtualSessionStore.class, "Virtual session store", PENDING, ERRORS,
						List.of("open", "find", "update", "remove", "maintain")),
				properties.maxBindings(), meterRegistry, clock);
	}

	@Override
	public String open(VirtualSession session) {
		String sessionId = this.ids.next();
		String key = key(sessionId);
		Write write = new Write(VirtualSessionJson.encode(session), true);
		try {
			write(key, write);
		}
		catch (DataAccessException ex) {
			this.outage.failed("open", ex);
			this.outage.keep(key, write, "a new virtual session is not stored; its client will get 404");
		}
		return sessionId;
	}

	@Override
	public @Nullable VirtualSession find(String sessionId, String virtualUid, McpPrincipal principal) {
		String key = key(sessionId);
		try {
			List<?> found = this.redis.execute(READ, List.of(key));
			VirtualSession session;
			if (found == null || found.isEmpty()) {
				session = pendingOrUnknown(key);
			}
			else {
				session = VirtualSessionJson.decode((String) found.get(0));
				long ttlMillis = ((Number) found.get(1)).longValue();
				if (session != null && session.ownedBy(virtualUid, principal) && ttlMillis >= 0
						&& this.idleTimeout.toMillis() - ttlMillis >= this.touchInterval.toMillis()) {
					this.redis.expire(key, this.idleTimeout);
				}
			}
			return (session != null && session.ownedBy(virtualUid, principal)) ? session : null;
		}
		catch (DataAccessException ex) {
			this.outage.failed("find", ex);
			throw new SessionStoreException("Virtual session store read failed: " + ex.getClass().getSimpleName(), ex);
		}
	}

	private @Nullable VirtualSession pendingOrUnknown(String key) {
		Write local = this.outage.pendingOrUnknown(key, this::write,
				() -> new SessionStoreException("Virtual session store recovering: an unknown session may be pending",
						null));
		return (local != null) ? VirtualSessionJson.decode(local.value()) : null;
	}

	@Override
	public void update(String sessionId, VirtualSession session) {
		String key = key(sessionId);
		Write pending = this.outage.forget(key);
		// A session still pending was never written: its update creates it.
		Write write = new Write(VirtualSessionJson.encode(session), pending != null && pending.opens());
		try {
			write(key, write);
		}
		catch (DataAccessException ex) {
			this.outage.failed("update", ex);
			this.outage.keep(key, write, "a member session opened again is forgotten; it is opened once more");
		}
	}

	@Override
	public @Nullable VirtualSession remove(String sessionId) {
		String key = key(sessionId);
		Write local = this.outage.forget(key);
		String fallback = (local != null) ? local.value() : null;
		try {
			String value = this.redis.opsForValue().getAndDelete(key);
			return VirtualSessionJson.decode((value != null) ? value : fallback);
		}
		catch (DataAccessException ex) {
			// The session stays until its TTL; the member sessions under it were ended
			// or will be by their own idle timeout.
			this.outage.failed("remove", ex);
			return VirtualSessionJson.decode(fallback);
		}
	}

	/**
	 * Writes the sessions kept while Redis was unreachable or, with none, pings Redis so
	 * that this replica notices an outage even without traffic. Run every second.
	 */
	void maintain() {
		this.outage.maintain(this::write, () -> this.redis.execute(PING));
	}

	int pending() {
		return this.outage.size();
	}

	/** Opens unless present, or updates only if present; with a full TTL either way. */
	private void write(String key, Write write) {
		if (write.opens()) {
			this.redis.opsForValue().setIfAbsent(key, write.value(), this.idleTimeout);
		}
		else {
			this.redis.opsForValue().setIfPresent(key, write.value(), this.idleTimeout);
		}
	}

	private String key(String sessionId) {
		return this.keyPrefix + Sha256.hex("mcp-virtual-session/v1\0" + sessionId);
	}

	/**
	 * A write of a session's value: one that opens it ({@code SET NX}) or one that
	 * updates it ({@code SET XX}, so that a removed or expired session stays gone).
	 */
	record Write(String value, boolean opens) {
	}

}
