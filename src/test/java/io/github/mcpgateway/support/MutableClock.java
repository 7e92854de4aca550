package io.github.mcpgateway.support;

import java.time.Duration;
import java.time.Instant;

import io.github.mcpgateway.clock.GatewayClock;

/**
 * The tests' one clock that moves only when told to: {@link #advance(Duration)} moves the
 * wall-clock instant and the monotonic reading (and with it every Caffeine cache built on
 * its ticker) by the same amount.
 */
public final class MutableClock extends GatewayClock {

	private static final Instant ORIGIN = Instant.parse("2026-01-01T00:00:00Z");

	private volatile long elapsedNanos;

	public void advance(Duration duration) {
		if (duration.isNegative()) {
			throw new IllegalArgumentException("a monotonic clock does not go back: " + duration);
		}
		synchronized (this) {
			this.elapsedNanos += duration.toNanos();
		}
	}

	@Override
	public Instant instant() {
		return ORIGIN.plusNanos(this.elapsedNanos);
	}

	@Override
	public long nanoTime() {
		return this.elapsedNanos;
	}

}
