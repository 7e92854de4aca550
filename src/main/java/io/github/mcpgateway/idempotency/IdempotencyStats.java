package io.github.mcpgateway.idempotency;

/**
 * Counts of a store at one moment.
 *
 * @param entries all entries
 * @param inFlight entries still running
 * @param tombstones tombstones
 * @param replayable completed, replayable entries
 * @param bytes stored reply bytes
 */
public record IdempotencyStats(int entries, int inFlight, int tombstones, int replayable, long bytes) {
}
