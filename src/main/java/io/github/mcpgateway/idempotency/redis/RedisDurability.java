package io.github.mcpgateway.idempotency.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.function.Supplier;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What in the Redis server's own settings weakens the store's guarantee (ADR 0025), for
 * the health component: the fence makes a loss safe, these make it likely.
 * <ul>
 * <li>an {@code allkeys-*} {@code maxmemory-policy} may evict any of the store's keys,
 * none of which has a TTL (a {@code volatile-*} policy never evicts them, and
 * {@code noeviction} refuses writes instead, which the gateway answers 503);</li>
 * <li>no append-only file: a restart loses every key (or every key since the last RDB
 * snapshot);</li>
 * <li>{@code appendfsync no}: a crash loses what the kernel had not written yet.</li>
 * </ul>
 * A server that refuses {@code CONFIG GET} (managed services often do) is reported as
 * such: its settings cannot be checked from here.
 */
final class RedisDurability implements Supplier<List<String>> {

	private final StringRedisTemplate redis;

	private final Duration fence;

	RedisDurability(StringRedisTemplate redis, Duration fence) {
		this.redis = redis;
		this.fence = fence;
	}

	@Override
	public List<String> get() {
		Properties settings;
		try {
			settings = this.redis
				.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().getConfig("*"));
		}
		catch (DataAccessException ex) {
			return List.of("the server's settings cannot be read (CONFIG GET refused): check maxmemory-policy and "
					+ "appendonly by hand");
		}
		return (settings != null) ? warnings(settings) : List.of();
	}

	List<String> warnings(Properties settings) {
		List<String> warnings = new ArrayList<>();
		String policy = setting(settings, "maxmemory-policy");
		if (policy.startsWith("allkeys-")) {
			warnings.add("maxmemory-policy " + policy + " can evict the store's keys: set noeviction");
		}
		if (!"yes".equals(setting(settings, "appendonly"))) {
			warnings.add("appendonly is off: a restart loses the store's keys, and keys it does not hold are then "
					+ "refused for " + this.fence.toSeconds() + " s");
		}
		else if ("no".equals(setting(settings, "appendfsync"))) {
			warnings.add("appendfsync no: a crash loses the writes the kernel had not flushed");
		}
		return warnings;
	}

	private static String setting(Properties settings, String name) {
		return settings.getProperty(name, "").toLowerCase(Locale.ROOT);
	}

}
