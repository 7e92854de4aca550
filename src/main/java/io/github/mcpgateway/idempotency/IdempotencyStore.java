package io.github.mcpgateway.idempotency;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Keeps keyed requests between their first execution and the end of their replay window.
 *
 * <p>
 * Contract, for every implementation:
 * <ul>
 * <li>{@link #begin} is atomic: of any number of concurrent calls for one entry key, at
 * most one gets {@link BeginResult.Started}; the others see it in flight.</li>
 * <li>A started entry leaves the in-flight state only through {@link #complete},
 * {@link #tombstone} or {@link #release}; it never expires and is never evicted. A shared
 * store may also turn it into an outcome-unknown tombstone when the replica running it
 * stops renewing its lease (it died mid-call): never back into a key that can run
 * again.</li>
 * <li>A tombstone is never evicted before its TTL: the request may have run, so it must
 * never run again within the window.</li>
 * <li>Completed entries and tombstones expire a TTL after completion, not after begin; or
 * later, when the outcome is recorded with a longer {@code atLeast} (the call created a
 * task, and a retry within the task's life must get that task, not a second one).</li>
 * </ul>
 * Keys given to a store are already scoped hashes; a store never sees a raw key.
 */
public interface IdempotencyStore {

	/** Starts, replays or refuses {@code entry}. */
	BeginResult begin(IdempotencyEntry entry);

	/** The request ran and produced a replayable reply, kept for the TTL. */
	default void complete(IdempotencyEntry entry, StoredReply reply) {
		complete(entry, reply, Duration.ZERO);
	}

	/**
	 * The request ran and produced a replayable reply, kept for the TTL or
	 * {@code atLeast} from now, whichever is longer.
	 */
	void complete(IdempotencyEntry entry, StoredReply reply, Duration atLeast);

	/** The request may have run and its reply cannot be replayed; kept for the TTL. */
	default void tombstone(IdempotencyEntry entry, TombstoneKind kind) {
		tombstone(entry, kind, Duration.ZERO);
	}

	/**
	 * The request may have run and its reply cannot be replayed; kept for the TTL or
	 * {@code atLeast} from now, whichever is longer.
	 */
	void tombstone(IdempotencyEntry entry, TombstoneKind kind, Duration atLeast);

	/** The request did not run (or was definitively rejected): forget the key. */
	void release(IdempotencyEntry entry);

	/** Current counts, for metrics and the operator endpoint. */
	IdempotencyStats stats();

	/**
	 * Removes the one tombstone whose entry key starts with {@code keyHash} (the 16 hex
	 * characters audit events show), for an operator who reconciled the outcome with the
	 * tool's own state. Removes nothing when no tombstone, or more than one, matches.
	 * @return whether a tombstone was removed
	 */
	boolean clearTombstone(String keyHash);

	/**
	 * The fence that follows a loss of the store's data (ADR 0025), while it holds; a
	 * store that promises nothing across its own loss (the memory store: a gateway
	 * restart is not deduplicated) has none.
	 */
	default @Nullable StoreFence fence() {
		return null;
	}

	/**
	 * Ends the fence at once, for an operator who knows no retry of a forgotten key is
	 * pending.
	 * @return whether a fence was holding
	 */
	default boolean endFence() {
		return false;
	}

	/** Why a tombstone was written; decides the answer to a retry. */
	enum TombstoneKind {

		/** 5xx, timeout, disconnect or failed body read: it may or may not have run. */
		OUTCOME_UNKNOWN,
		/** It ran, but the reply was a stream, content-encoded or over the size cap. */
		NOT_REPLAYABLE

	}

}
