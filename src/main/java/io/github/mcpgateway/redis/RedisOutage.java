package io.github.mcpgateway.redis;

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

import org.springframework.dao.DataAccessException;

import io.github.mcpgateway.clock.GatewayClock;

/**
 * How a Redis store of bindings rides out a Redis outage: one mechanism for the session
 * and the task store, each of which holds one instance.
 *
 * <p>
 * Design notes.
 * <ul>
 * <li><b>Pending writes.</b> A write that must not be lost to an outage (a binding the
 * upstream has already made) is {@linkplain #keep kept} in this replica's memory under
 * its key, at most {@code maxPending} of them (past that it is dropped and logged). The
 * store serves it from here and {@link #maintain} writes it once Redis answers; a write
 * forgets the entry only if it is still the one written, so a newer value for the same
 * key is never lost. Pending writes die with the replica.</li>
 * <li><b>Recovery window.</b> For {@link #RECOVERY} after this replica last saw a Redis
 * operation fail, {@link #recovering()} is true: an unknown key may still be pending on
 * another replica, so the store answers "unavailable" (the client retries) rather than
 * "not found" (the client gives up). Each replica sees a failure within a second (the
 * maintenance runs every second), reconnects within about a second
 * ({@code config.RedisClientConfiguration}) and writes what it kept within a second more,
 * well within the window. The window is measured on {@link GatewayClock#nanoTime()}: a
 * duration within one replica, which a change of the wall clock must not stretch.</li>
 * <li><b>Counters.</b> A gauge of the pending writes and a counter of failed operations
 * tagged {@code operation}; every operation the store names exists from the start at 0,
 * so that a rate over it is defined before the first failure (dashboards and
 * alerts).</li>
 * </ul>
 * Thread-safe: the pending writes are a concurrent map, the last failure a volatile.
 *
 * @param <V> what a pending write stores under its key
 */
public final class RedisOutage<V> {

	/**
	 * How long after a failure an unknown key is answered "store unavailable" rather than
	 * "not found".
	 */
	public static final Duration RECOVERY = Duration.ofSeconds(5);

	private final Names names;

	private final Log logger;

	private final int maxPending;

	private final GatewayClock clock;

	private final MeterRegistry meterRegistry;

	/** Redis key to the value written there once Redis answers. */
	private final ConcurrentMap<String, V> pending = new ConcurrentHashMap<>();

	private final Map<String, Counter> errors = new ConcurrentHashMap<>();

	/** {@link GatewayClock#nanoTime()} of the last failure, odd; 0 for none yet. */
	private volatile long lastFailure;

	public RedisOutage(Names names, int maxPending, MeterRegistry meterRegistry, GatewayClock clock) {
		this.names = names;
		this.logger = LogFactory.getLog(names.store());
		this.maxPending = maxPending;
		this.clock = clock;
		this.meterRegistry = meterRegistry;
		Gauge.builder(names.pendingGauge(), this.pending, Map::size).register(meterRegistry);
		for (String operation : names.operations()) {
			this.errors.put(operation, meterRegistry.counter(names.errorCounter(), "operation", operation));
		}
	}

	/** Records a failed Redis operation: counted, and the recovery window starts anew. */
	public void failed(String operation, DataAccessException ex) {
		// Odd, so that a clock reading 0 (a test clock) still marks a failure.
		this.lastFailure = this.clock.nanoTime() | 1;
		this.errors
			.computeIfAbsent(operation,
					(name) -> this.meterRegistry.counter(this.names.errorCounter(), "operation", name))
			.increment();
		if (this.logger.isDebugEnabled()) {
			this.logger.debug(this.names.name() + " " + operation + " failed", ex);
		}
	}

	/** Whether this replica saw Redis fail less than {@link #RECOVERY} ago. */
	public boolean recovering() {
		long failure = this.lastFailure;
		return failure != 0 && this.clock.nanoTime() - failure < RECOVERY.toNanos();
	}

	/**
	 * Keeps a write that Redis could not take, unless one for {@code key} is pending
	 * already; with {@code maxPending} pending, drops it and logs {@code lost}, what that
	 * costs the client.
	 */
	public void keep(String key, V value, String lost) {
		if (this.pending.size() < this.maxPending) {
			this.pending.putIfAbsent(key, value);
		}
		else {
			this.logger
				.warn(this.names.name() + " unreachable and " + this.maxPending + " bindings already pending: " + lost);
		}
	}

	/** The write pending for {@code key}, or {@code null}. */
	public @Nullable V pending(String key) {
		return this.pending.get(key);
	}

	/**
	 * What a store answers for a {@code key} Redis does not know: the write this replica
	 * kept for it while Redis was down (written now, Redis being back before the
	 * maintenance task), or {@code null}: unknown. Within the recovery window another
	 * replica may still hold it pending, so nothing can be said: {@code recovering} is
	 * thrown.
	 */
	public @Nullable V pendingOrUnknown(String key, Write<V> write,
			java.util.function.Supplier<? extends RuntimeException> recovering) {
		V local = pending(key);
		if (local != null) {
			flush(key, write);
		}
		else if (recovering()) {
			throw recovering.get();
		}
		return local;
	}

	/** Forgets the write pending for {@code key}; returns it, or {@code null}. */
	public @Nullable V forget(String key) {
		return this.pending.remove(key);
	}

	/** How many writes are pending. */
	public int size() {
		return this.pending.size();
	}

	/**
	 * Writes what is pending for {@code key}, if anything, and forgets it; returns
	 * whether there was anything. A failed write stays pending and its exception
	 * propagates.
	 */
	public boolean flush(String key, Write<V> write) {
		V value = this.pending.get(key);
		if (value == null) {
			return false;
		}
		write.write(key, value);
		this.pending.remove(key, value);
		return true;
	}

	/**
	 * Writes every pending write, stopping at the first failure (recorded as
	 * {@code maintain}). Run every second by the store's maintenance task.
	 */
	public void maintain(Write<V> write) {
		maintain(write, () -> {
		});
	}

	/**
	 * As {@link #maintain(Write)}; with nothing pending, runs {@code idle} instead (a
	 * ping, so that the replica notices an outage without traffic), a failure of which is
	 * recorded the same way.
	 */
	public void maintain(Write<V> write, Runnable idle) {
		try {
			if (this.pending.isEmpty()) {
				idle.run();
			}
			for (Map.Entry<String, V> entry : this.pending.entrySet()) {
				write.write(entry.getKey(), entry.getValue());
				this.pending.remove(entry.getKey(), entry.getValue());
			}
		}
		catch (DataAccessException ex) {
			failed("maintain", ex);
		}
	}

	/**
	 * How a store names itself: its class (the logger), its name in log lines, its gauge
	 * of pending writes, its counter of failed operations and the operations counted from
	 * the start.
	 */
	public record Names(Class<?> store, String name, String pendingGauge, String errorCounter,
			List<String> operations) {
	}

	/**
	 * Writes one pending value to Redis; throws {@link DataAccessException} on failure.
	 */
	@FunctionalInterface
	public interface Write<V> {

		void write(String key, V value);

	}

}
