package io.github.mcpgateway.idempotency;

/**
 * Counts of a store at one moment.
 *
 * @param entries all entries
 * @param inFlight entries still running
 * @param tombstones tombstones
 * @param replayable completed, replayable entries
 * @param bytes stored reply bytes
 * @param fullestScopeBudget the tombstone budget used by the fullest scope: its
 * tombstones plus its calls in flight, the count {@code max-tombstones-per-scope} bounds
 * (0 when the store is empty)
 * @param fullestHumanBudget the tombstone budget used by the fullest human, across all
 * its agents, teams and sessions: the count {@code max-tombstones-per-human} bounds
 */
public record IdempotencyStats(int entries, int inFlight, int tombstones, int replayable, long bytes,
		int fullestScopeBudget, int fullestHumanBudget) {
}
