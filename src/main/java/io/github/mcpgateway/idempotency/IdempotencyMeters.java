package io.github.mcpgateway.idempotency;

/**
 * Names of the Idempotency-Key meters (Prometheus renders dots as underscores and adds
 * {@code _total} to counters).
 */
public final class IdempotencyMeters {

	/**
	 * Counter of keyed requests, tagged {@code namespace, server} and {@code outcome}
	 * ({@link IdempotencyOutcome}).
	 */
	public static final String OUTCOMES = "mcp.gateway.idempotency";

	/** Gauge of the store's entries (completed, tombstones and in flight). */
	public static final String STORE_ENTRIES = "mcp.gateway.idempotency.store.entries";

	/** Gauge of the store's entries in flight. */
	public static final String STORE_IN_FLIGHT = "mcp.gateway.idempotency.store.in.flight";

	/** Gauge of the store's tombstones. */
	public static final String STORE_TOMBSTONES = "mcp.gateway.idempotency.store.tombstones";

	/**
	 * Gauge of the tombstone budget the fullest scope uses (its tombstones plus its calls
	 * in flight), next to {@link #LIMIT_TOMBSTONES_PER_SCOPE}.
	 */
	public static final String STORE_FULLEST_SCOPE_BUDGET = "mcp.gateway.idempotency.store.fullest.scope.budget";

	/** Gauge of the configured {@code max-tombstones-per-scope}. */
	public static final String LIMIT_TOMBSTONES_PER_SCOPE = "mcp.gateway.idempotency.limit.tombstones.per.scope";

	/**
	 * Counter of keyed requests refused with {@code idempotency_capacity}, tagged
	 * {@code limit} ({@link BeginResult.Limit#tag()}): which quota or cap was reached.
	 */
	public static final String CAPACITY_REFUSALS = "mcp.gateway.idempotency.capacity.refusals";

	/**
	 * Gauge of the tombstone budget the fullest human uses across all its agents, teams
	 * and sessions (its tombstones plus its calls in flight), next to
	 * {@link #LIMIT_TOMBSTONES_PER_HUMAN}.
	 */
	public static final String STORE_FULLEST_HUMAN_BUDGET = "mcp.gateway.idempotency.store.fullest.human.budget";

	/** Gauge of the configured {@code max-tombstones-per-human}. */
	public static final String LIMIT_TOMBSTONES_PER_HUMAN = "mcp.gateway.idempotency.limit.tombstones.per.human";

	/** Gauge of the bytes of stored replies. */
	public static final String STORE_BYTES = "mcp.gateway.idempotency.store.bytes";

	private IdempotencyMeters() {
	}

}
