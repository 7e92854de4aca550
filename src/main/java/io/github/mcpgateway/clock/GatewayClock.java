package io.github.mcpgateway.clock;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import com.github.benmanes.caffeine.cache.Ticker;

/**
 * The gateway's one time source. It is a {@link Clock} for what is stored or shown
 * (expiry instants, audit timestamps) and adds a monotonic reading, {@link #nanoTime()},
 * for what is measured (durations, deadlines, recovery windows) and for Caffeine's expiry
 * ({@link #ticker()}). Both readings come from one object, so that a test clock moves
 * them together; logic reads neither {@code System.nanoTime()} nor
 * {@code System.currentTimeMillis()} directly.
 * <p>
 * Contract: {@link #nanoTime()} never decreases; its origin is arbitrary, so only
 * differences between two readings mean anything. The zone is always UTC.
 */
public abstract class GatewayClock extends Clock {

	private static final GatewayClock SYSTEM = new GatewayClock() {

		@Override
		public Instant instant() {
			return Instant.now();
		}

		@Override
		public long millis() {
			return System.currentTimeMillis();
		}

		@Override
		public long nanoTime() {
			return System.nanoTime();
		}

	};

	/** The machine's clocks: {@link Instant#now()} and {@link System#nanoTime()}. */
	public static GatewayClock system() {
		return SYSTEM;
	}

	/** A monotonic reading in nanoseconds; only differences mean anything. */
	public abstract long nanoTime();

	/**
	 * {@link #nanoTime()} as a Caffeine {@link Ticker}, for caches that expire entries.
	 */
	public final Ticker ticker() {
		return this::nanoTime;
	}

	@Override
	public final ZoneOffset getZone() {
		return ZoneOffset.UTC;
	}

	/** Always this clock: the gateway works in UTC only. */
	@Override
	public final Clock withZone(ZoneId zone) {
		return this;
	}

}
