package io.github.mcpgateway.quota;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.mcpgateway.clock.GatewayClock;

/**
 * Token buckets in this replica's memory, for a gateway that runs one replica. Each
 * bucket is the generic cell rate algorithm's one number, the theoretical arrival time of
 * the next request: a bucket is full when that time is past, and a full bucket is
 * dropped, so the store holds only buckets that are in use.
 *
 * <p>
 * Why not a library: the token-bucket libraries (Bucket4j, Resilience4j's RateLimiter)
 * keep an object per bucket with its own lock and refill schedule; this is one long per
 * bucket under one short lock, which makes the all-or-nothing rule over a request's
 * buckets a plain loop. Redis runs the same arithmetic in one script.
 */
final class MemoryQuotaStore implements QuotaStore {

	/** How many consumptions pass between sweeps of full buckets. */
	private static final int SWEEP_EVERY = 4096;

	private final GatewayClock clock;

	private final Map<String, Long> arrivals = new HashMap<>();

	private int sinceSweep;

	MemoryQuotaStore(GatewayClock clock) {
		this.clock = clock;
	}

	@Override
	public synchronized QuotaResult consume(List<QuotaBucket> buckets) {
		long now = this.clock.nanoTime();
		sweep(now);
		long[] next = new long[buckets.size()];
		long[] remaining = new long[buckets.size()];
		int refusedBy = -1;
		long wait = 0;
		for (int i = 0; i < buckets.size(); i++) {
			QuotaBucket bucket = buckets.get(i);
			long arrival = Math.max(this.arrivals.getOrDefault(bucket.key(), now), now);
			next[i] = arrival + bucket.intervalNanos();
			long allowedFrom = next[i] - bucket.capacityNanos();
			if (now < allowedFrom) {
				refusedBy = (refusedBy < 0) ? i : refusedBy;
				wait = Math.max(wait, allowedFrom - now);
				remaining[i] = 0;
			}
			else {
				remaining[i] = (now - allowedFrom) / bucket.intervalNanos();
			}
		}
		if (refusedBy >= 0) {
			for (int i = 0; i < buckets.size(); i++) {
				remaining[i] = tokens(buckets.get(i), now);
			}
			return new QuotaResult(refusedBy, Duration.ofNanos(wait), remaining);
		}
		for (int i = 0; i < buckets.size(); i++) {
			this.arrivals.put(buckets.get(i).key(), next[i]);
		}
		return new QuotaResult(-1, Duration.ZERO, remaining);
	}

	@Override
	public synchronized List<BucketLevel> peek(List<QuotaBucket> buckets) {
		long now = this.clock.nanoTime();
		List<BucketLevel> levels = new java.util.ArrayList<>(buckets.size());
		for (QuotaBucket bucket : buckets) {
			long arrival = Math.max(this.arrivals.getOrDefault(bucket.key(), now), now);
			long next = (arrival <= now) ? 0 : bucket.intervalNanos()
					- Math.floorMod(now + bucket.capacityNanos() - arrival, bucket.intervalNanos());
			levels.add(new BucketLevel(tokens(bucket, now), Duration.ofNanos(next)));
		}
		return List.copyOf(levels);
	}

	/** The tokens {@code bucket} holds at {@code now}. */
	private long tokens(QuotaBucket bucket, long now) {
		long arrival = Math.max(this.arrivals.getOrDefault(bucket.key(), now), now);
		return Math.max(0, (now + bucket.capacityNanos() - arrival) / bucket.intervalNanos());
	}

	/** Drops full buckets now and then, so memory follows the buckets in use. */
	private void sweep(long now) {
		if (++this.sinceSweep < SWEEP_EVERY) {
			return;
		}
		this.sinceSweep = 0;
		this.arrivals.values().removeIf((arrival) -> arrival <= now);
	}

	/** Buckets held, for tests and the gauge. */
	synchronized int size() {
		return this.arrivals.size();
	}

}
