package io.github.mcpgateway.admission;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * At most {@code max} requests in flight per key (a client address, a human); {@code 0}
 * turns the cap off.
 *
 * <p>
 * Design notes. A key has an entry only while it has a request in flight: the entry is
 * made by the first acquire and removed by the release that brings it back to zero, both
 * inside {@link ConcurrentHashMap#compute}, so a count is never lost between the two. The
 * map is therefore bounded by the requests in flight (Tomcat's
 * {@code server.tomcat.max-connections}), not by the number of callers ever seen: an
 * attacker cycling through keys makes no lasting entries, and no eviction can forget a
 * count that is still held (which a size-bounded cache would, letting a flood through).
 * Every acquire that returns {@code true} must be released exactly once.
 */
final class InFlightLimiter {

	private final int max;

	private final ConcurrentMap<String, Integer> inFlight = new ConcurrentHashMap<>();

	private final AtomicInteger total = new AtomicInteger();

	private final Counter refused;

	/**
	 * @param limit the name of the cap, the {@code limit} tag of its meters
	 * @param max the most requests in flight per key; {@code 0} for no cap
	 */
	InFlightLimiter(String limit, int max, MeterRegistry meterRegistry) {
		this.max = max;
		this.refused = meterRegistry.counter(AdmissionMeters.REFUSED, AdmissionMeters.LIMIT, limit);
		Gauge.builder(AdmissionMeters.IN_FLIGHT, this.total, AtomicInteger::get)
			.tag(AdmissionMeters.LIMIT, limit)
			.register(meterRegistry);
	}

	/**
	 * Takes a place for {@code key}; {@code false}, counted, when its places are taken.
	 */
	boolean tryAcquire(String key) {
		if (this.max == 0) {
			return true;
		}
		boolean[] acquired = new boolean[1];
		this.inFlight.compute(key, (k, count) -> {
			int held = (count != null) ? count : 0;
			acquired[0] = held < this.max;
			return acquired[0] ? held + 1 : count;
		});
		if (acquired[0]) {
			this.total.incrementAndGet();
		}
		else {
			this.refused.increment();
		}
		return acquired[0];
	}

	/** Gives back a place {@link #tryAcquire} took for {@code key}. */
	void release(String key) {
		if (this.max == 0) {
			return;
		}
		this.inFlight.computeIfPresent(key, (k, count) -> (count > 1) ? count - 1 : null);
		this.total.decrementAndGet();
	}

	/** Keys with a request in flight. */
	int keys() {
		return this.inFlight.size();
	}

}
