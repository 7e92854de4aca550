package io.github.mcpgateway.quota;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import io.github.mcpgateway.digest.Sha256;
import io.github.mcpgateway.redis.RedisScripts;

/**
 * Token buckets in Redis, shared by every replica: the memory store's arithmetic (one
 * theoretical arrival time per bucket, in microseconds of Redis's own clock) in one
 * script, so that one check of all of a request's buckets is one round trip and atomic
 * however many replicas ask at once.
 *
 * <p>
 * Keys: {@code key-prefix} and a SHA-256 of the bucket's key ({@link QuotaPlan#key}:
 * server, limit and who shares it, each name length-prefixed); a bucket expires when it
 * would be full again, so Redis holds only buckets in use.
 *
 * <p>
 * Clocks (the rule of docs/architecture.md, "Clocks and Redis"): Redis's {@code TIME},
 * not the gateway clock. A bucket is shared state that every replica reads and advances
 * at microsecond resolution; on the callers' clocks, a replica whose clock runs ahead
 * would find buckets fuller than they are and grant tokens early, which a cap must not. A
 * bucket's key TTL (when it would be full again) only lets Redis drop idle buckets.
 *
 * <p>
 * Why not Bucket4j's Redis backend: it checks a bucket with a read and a compare-and-swap
 * (two round trips, and retries under contention) and one bucket at a time, while the
 * contract here is all of a request's limits or none, in one round trip.
 */
record RedisQuotaStore(StringRedisTemplate redis, String prefix) implements QuotaStore {

	/**
	 * Checks, and takes when asked, one token of each bucket, all or none. KEYS: the
	 * buckets. ARGV: interval (µs) and burst of each, then 1 to consume, 0 to peek.
	 * Returns: the index of the first refusing bucket (-1: none), the wait in µs, then
	 * each bucket's tokens; when peeking, then each one's wait for its next token in µs.
	 */
	private static final RedisScript<List> CONSUME = RedisScripts.load(List.class, "quota/redis/consume.lua");

	@Override
	public QuotaResult consume(List<QuotaBucket> buckets) {
		List<?> out = run(buckets, true);
		long[] remaining = tokens(out);
		int refusedBy = ((Number) out.get(0)).intValue();
		Duration wait = Duration.ofNanos(((Number) out.get(1)).longValue() * 1000);
		return new QuotaResult(refusedBy, (refusedBy < 0) ? Duration.ZERO : wait, remaining);
	}

	@Override
	public List<BucketLevel> peek(List<QuotaBucket> buckets) {
		List<?> out = run(buckets, false);
		List<BucketLevel> levels = new ArrayList<>(buckets.size());
		for (int i = 0; i < buckets.size(); i++) {
			long tokens = ((Number) out.get(i + 2)).longValue();
			long micros = ((Number) out.get(i + 2 + buckets.size())).longValue();
			levels.add(new BucketLevel(tokens, Duration.ofNanos(micros * 1000)));
		}
		return List.copyOf(levels);
	}

	private List<?> run(List<QuotaBucket> buckets, boolean consume) {
		List<String> keys = new ArrayList<>(buckets.size());
		String[] args = new String[buckets.size() * 2 + 1];
		for (int i = 0; i < buckets.size(); i++) {
			QuotaBucket bucket = buckets.get(i);
			keys.add(this.prefix + hash(bucket.key()));
			args[2 * i] = Long.toString(Math.max(1, bucket.intervalNanos() / 1000));
			args[2 * i + 1] = Integer.toString(bucket.burst());
		}
		args[args.length - 1] = consume ? "1" : "0";
		try {
			List<?> out = this.redis.execute(CONSUME, keys, (Object[]) args);
			if (out == null || out.size() != (consume ? 2 + buckets.size() : 2 + 2 * buckets.size())) {
				throw new QuotaStoreException("Quota store answered in an unexpected shape", null);
			}
			return out;
		}
		catch (DataAccessException ex) {
			throw new QuotaStoreException("Quota store failed: " + ex.getClass().getSimpleName(), ex);
		}
	}

	private static long[] tokens(List<?> out) {
		long[] tokens = new long[out.size() - 2];
		for (int i = 0; i < tokens.length; i++) {
			tokens[i] = ((Number) out.get(i + 2)).longValue();
		}
		return tokens;
	}

	private static String hash(String key) {
		return Sha256.hex(key).substring(0, 32);
	}

}
