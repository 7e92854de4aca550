package io.github.mcpgateway.session;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.digest.Sha256;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * Session bindings in Redis ({@code gateway.session.store: redis}): every replica pointed
 * at the same Redis sees every session, and a restarted replica serves the sessions it
 * had.
 *
 * <p>
 * Design notes.
 * <ul>
 * <li><b>Keys.</b> One string key per binding, {@code <prefix><sha256(session id)>}; the
 * value is the server identity and the principal (JSON). The raw session id is never
 * stored.</li>
 * <li><b>Idle timeout.</b> The key's TTL. A use by the owner renews it only when it is
 * older than the touch interval (one read per request with a session, one more write at
 * most once per interval), so a session lives between {@code idle-timeout} minus the
 * interval and {@code idle-timeout} after its last use.</li>
 * <li><b>Redis down.</b> A read fails and the request that carried the session fails
 * closed ({@link SessionStoreException}). A binding made while Redis is down (the
 * {@code initialize} itself goes through) is kept in this replica's memory and written
 * once Redis answers again (by the next use of the session here, or the maintenance task
 * within a second). Another replica cannot tell such a session from an unknown one, so
 * for {@link #RECOVERY} after this replica last saw Redis fail, an unknown session is
 * answered as "store unavailable" (503, the client retries) rather than "not found" (404,
 * the client would start over): every replica sees failures within a second (the
 * maintenance task pings Redis when it has nothing to write) and reconnects within about
 * a second, so the binding is written well within that window. If the replica that made
 * it stops before Redis is back, the session is lost (404, the client initializes again).
 * Pending bindings are bounded by {@code gateway.session.max-bindings}.</li>
 * <li><b>Sessions per human.</b> Beside the bindings, one sorted set per human,
 * {@code <prefix>human:<sha256(human)>}, holds the keys of that human's bindings scored
 * by the time of their binding or last touch. The binding and its entry are written by
 * one script ({@link #BIND}), which also forgets entries idle past the timeout and, past
 * {@code gateway.session.max-per-principal}, deletes that human's oldest bindings (and no
 * one else's); a touch moves the entry, a removal takes it out. The set shares the key
 * prefix's hash tag, so a cluster keeps it in the bindings' slot. A binding whose human's
 * set was lost (Redis restarted without persistence) still works; it just no longer
 * counts until it is bound again.</li>
 * </ul>
 */
final class RedisSessionStore implements SessionStore {

	private static final Log logger = LogFactory.getLog(RedisSessionStore.class);

	/** Gauge: bindings made while Redis was unreachable, not yet written. */
	static final String PENDING = "mcp.gateway.sessions.store.pending";

	/** Counter of failed Redis operations, tagged {@code operation}. */
	static final String ERRORS = "mcp.gateway.sessions.store.errors";

	/** Value and remaining TTL in one round trip; an empty list for no key. */
	private static final RedisScript<List> READ = RedisScript.of("""
			local value = redis.call('GET', KEYS[1])
			if not value then return {} end
			return {value, redis.call('PTTL', KEYS[1])}
			""", List.class);

	/**
	 * Binds unless bound (KEYS[1]) and records it in its human's set (KEYS[2]; ARGV[5] is
	 * {@code 0} for a binding without a human, whose KEYS[2] repeats KEYS[1]); drops the
	 * human's oldest bindings past the cap. Returns {added, dropped}. ARGV: value, idle
	 * timeout (ms), now (ms), cap, has human.
	 */
	static final RedisScript<List> BIND = RedisScript.of("""
			if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return {0, 0} end
			if ARGV[5] == '0' then return {1, 0} end
			local now = tonumber(ARGV[3])
			redis.call('ZADD', KEYS[2], now, KEYS[1])
			redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[2]))
			local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
			local dropped = 0
			if over > 0 then
				local oldest = redis.call('ZPOPMIN', KEYS[2], over)
				for i = 1, #oldest, 2 do dropped = dropped + redis.call('DEL', oldest[i]) end
			end
			redis.call('PEXPIRE', KEYS[2], ARGV[2])
			return {1, dropped}
			""", List.class);

	private static final JsonMapper json = JsonMapper.builder().build();

	/**
	 * How long after a failure an unknown session is answered "store unavailable" rather
	 * than "not found".
	 */
	static final Duration RECOVERY = Duration.ofSeconds(5);

	private final StringRedisTemplate redis;

	private final String keyPrefix;

	private final Duration idleTimeout;

	private final Duration touchInterval;

	private final int maxPending;

	private final int maxPerPrincipal;

	private final Counter droppedByCap;

	/** Redis key to value, of bindings made while Redis was unreachable. */
	private final ConcurrentMap<String, String> pending = new ConcurrentHashMap<>();

	private final Map<String, Counter> errors = new ConcurrentHashMap<>();

	private final MeterRegistry meterRegistry;

	/**
	 * {@link GatewayClock#nanoTime()} of the last failed Redis operation; 0 for none yet.
	 */
	private volatile long lastFailure;

	private final GatewayClock clock;

	RedisSessionStore(StringRedisTemplate redis, SessionProperties properties, MeterRegistry meterRegistry,
			GatewayClock clock) {
		this.redis = redis;
		this.clock = clock;
		this.keyPrefix = properties.redis().keyPrefix();
		this.idleTimeout = properties.idleTimeout();
		this.touchInterval = properties.redis().touchInterval();
		this.maxPending = properties.maxBindings();
		this.maxPerPrincipal = properties.maxPerPrincipal();
		this.meterRegistry = meterRegistry;
		this.droppedByCap = meterRegistry.counter(SessionMeters.EVENTS, "event",
				SessionEvent.Type.DROPPED_PRINCIPAL_CAP.name().toLowerCase(java.util.Locale.ROOT));
		Gauge.builder(PENDING, this.pending, Map::size).register(meterRegistry);
		// Every operation's error counter exists from the start, at 0: a rate over it is
		// defined before the first failure (dashboards and alerts).
		for (String operation : new String[] { "bind", "use", "remove", "maintain" }) {
			this.errors.put(operation, meterRegistry.counter(ERRORS, "operation", operation));
		}
	}

	@Override
	public boolean bind(String sessionId, SessionBinding binding) {
		String key = key(sessionId);
		String value = encode(binding);
		try {
			return write(key, value);
		}
		catch (DataAccessException ex) {
			failed("bind", ex);
			if (this.pending.size() < this.maxPending) {
				this.pending.putIfAbsent(key, value);
			}
			else {
				logger.warn("Session store unreachable and " + this.maxPending
						+ " bindings already pending: a new session is not bound; its client will get 404");
			}
			return true;
		}
	}

	@Override
	public @Nullable SessionBinding use(String sessionId, SessionBinding owner) {
		String key = key(sessionId);
		try {
			List<?> found = this.redis.execute(READ, List.of(key));
			if (found == null || found.isEmpty()) {
				// Made here while Redis was down, and Redis is back before the flush
				// task.
				String local = this.pending.get(key);
				if (local != null) {
					flushPending(key);
				}
				else if (recovering()) {
					throw new SessionStoreException("Session store recovering: an unknown session may be pending",
							null);
				}
				return decode(local);
			}
			SessionBinding binding = decode((String) found.get(0));
			long ttlMillis = ((Number) found.get(1)).longValue();
			if (binding != null && binding.sameOwner(owner) && ttlMillis >= 0
					&& this.idleTimeout.toMillis() - ttlMillis >= this.touchInterval.toMillis()) {
				this.redis.expire(key, this.idleTimeout);
				String human = humanKey(binding);
				if (human != null) {
					this.redis.opsForZSet().add(human, key, this.clock.millis());
					this.redis.expire(human, this.idleTimeout);
				}
			}
			return binding;
		}
		catch (DataAccessException ex) {
			failed("use", ex);
			throw new SessionStoreException("Session store read failed: " + ex.getClass().getSimpleName(), ex);
		}
	}

	@Override
	public @Nullable SessionBinding remove(String sessionId) {
		String key = key(sessionId);
		String local = this.pending.remove(key);
		try {
			String value = this.redis.opsForValue().getAndDelete(key);
			SessionBinding binding = decode((value != null) ? value : local);
			String human = (binding != null) ? humanKey(binding) : null;
			if (human != null) {
				this.redis.opsForZSet().remove(human, key);
			}
			return binding;
		}
		catch (DataAccessException ex) {
			// The binding stays until its TTL; the upstream no longer knows the session,
			// so its next use gets the upstream's 404 and is removed then.
			failed("remove", ex);
			return decode(local);
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
		try {
			if (this.pending.isEmpty()) {
				this.redis.execute((RedisCallback<String>) (connection) -> connection.ping());
			}
			for (String key : this.pending.keySet()) {
				flushPending(key);
			}
		}
		catch (DataAccessException ex) {
			failed("maintain", ex);
		}
	}

	private boolean recovering() {
		long failure = this.lastFailure;
		return failure != 0 && this.clock.nanoTime() - failure < RECOVERY.toNanos();
	}

	/** Whether Redis answers, for health. */
	boolean ping() {
		try {
			return "PONG"
				.equalsIgnoreCase(this.redis.execute((RedisCallback<String>) (connection) -> connection.ping()));
		}
		catch (DataAccessException ex) {
			return false;
		}
	}

	int pending() {
		return this.pending.size();
	}

	/** Writes a pending binding, if {@code key} has one; returns whether it had. */
	private boolean flushPending(String key) {
		String value = this.pending.get(key);
		if (value == null) {
			return false;
		}
		write(key, value);
		this.pending.remove(key, value);
		return true;
	}

	private boolean write(String key, String value) {
		SessionBinding binding = decode(value);
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

	private void failed(String operation, DataAccessException ex) {
		this.lastFailure = this.clock.nanoTime() | 1;
		this.errors.computeIfAbsent(operation, (name) -> this.meterRegistry.counter(ERRORS, "operation", name))
			.increment();
		if (logger.isDebugEnabled()) {
			logger.debug("Session store " + operation + " failed", ex);
		}
	}

	private String key(String sessionId) {
		return this.keyPrefix + sha256("mcp-session/v1\0", sessionId);
	}

	private static String sha256(String domain, String value) {
		return Sha256.hex(domain + value);
	}

	static String encode(SessionBinding binding) {
		ObjectNode node = json.createObjectNode()
			.put("v", 1)
			.put("server", binding.server())
			.put("serverKey", binding.serverKey());
		McpPrincipal principal = binding.principal();
		if (principal != null) {
			node.putObject("principal")
				.put("human", principal.human())
				.put("agent", principal.agent())
				.put("team", principal.team());
		}
		return json.writeValueAsString(node);
	}

	/**
	 * The binding a stored value names, or {@code null} for one this version cannot read.
	 */
	static @Nullable SessionBinding decode(@Nullable String value) {
		if (value == null || value.isEmpty()) {
			return null;
		}
		try {
			JsonNode node = json.readTree(value);
			if (node.path("v").asInt() != 1 || !node.path("server").isString() || !node.path("serverKey").isString()) {
				return null;
			}
			JsonNode principal = node.path("principal");
			return new SessionBinding(node.get("server").asString(), node.get("serverKey").asString(),
					principal.isObject() ? new McpPrincipal(principal.path("human").asString(),
							textOrNull(principal.get("agent")), textOrNull(principal.get("team"))) : null);
		}
		catch (JacksonException | IllegalArgumentException ex) {
			return null;
		}
	}

	private static @Nullable String textOrNull(@Nullable JsonNode node) {
		return (node != null && node.isString()) ? node.asString() : null;
	}

}
