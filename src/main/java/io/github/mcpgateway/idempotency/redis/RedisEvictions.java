package io.github.mcpgateway.idempotency.redis;

import java.util.Locale;
import java.util.Properties;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Whether Redis evicted keys that may be the store's since the last look (ADR 0025): its
 * {@code evicted_keys} counter grew while its {@code maxmemory-policy} is one that may
 * evict keys without a TTL ({@code allkeys-*}; the store's keys have none, so a
 * {@code volatile-*} policy evicting other applications' keys is no loss of the store's).
 * A policy that cannot be read ({@code CONFIG GET} refused) counts as one that may. The
 * first look only takes the counter. Called by one thread (the lease renewal).
 */
final class RedisEvictions {

	private final StringRedisTemplate redis;

	private long evicted = -1;

	RedisEvictions(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/** Whether keys of the store may have been evicted since the last call. */
	boolean sinceLastLook() {
		Properties stats = this.redis
			.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().info("stats"));
		if (stats == null || stats.getProperty("evicted_keys") == null) {
			return false;
		}
		long now = Long.parseLong(stats.getProperty("evicted_keys").trim());
		long before = this.evicted;
		this.evicted = now;
		return before >= 0 && now > before && policyMayEvictTheStore();
	}

	private boolean policyMayEvictTheStore() {
		try {
			Properties policy = this.redis
				.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands()
					.getConfig("maxmemory-policy"));
			String value = (policy != null) ? policy.getProperty("maxmemory-policy") : null;
			return value == null || value.toLowerCase(Locale.ROOT).startsWith("allkeys-");
		}
		catch (DataAccessException ex) {
			return true;
		}
	}

}
