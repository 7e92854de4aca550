package io.github.mcpgateway.idempotency.memory;

import java.util.LinkedHashSet;

/**
 * Counts and the eviction queue of one quota level (a scope, principal or human) of the
 * {@link InMemoryIdempotencyStore}; read and written only under the store's monitor.
 */
final class QuotaLevel {

	/** Entries in any state. */
	int entries;

	int inFlight;

	int tombstones;

	/** Completed replayable entries in completion order: the level's eviction queue. */
	final LinkedHashSet<MemoryEntry> replayable = new LinkedHashSet<>();

}
