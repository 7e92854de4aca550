package io.github.mcpgateway.idempotency.redis;

/** Names of the Redis store meters. */
final class RedisStoreMeters {

	/**
	 * Timer of store operations, tagged {@code operation} (begin, complete, tombstone,
	 * release, renew, stats) and {@code result} (ok, error): latency and error rate of
	 * the shared store.
	 */
	static final String OPERATIONS = "mcp.gateway.idempotency.store.operations";

	/**
	 * Counter of losses of the store's data a replica detected first (ADR 0025), tagged
	 * {@code cause}: emptied, replaced, writes_lost, evicted.
	 */
	static final String LOSSES = "mcp.gateway.idempotency.store.losses";

	/**
	 * Gauge of the seconds left of the fence that follows a loss (0: none), as this
	 * replica last saw it (every begin, and every lease renewal).
	 */
	static final String FENCE_REMAINING = "mcp.gateway.idempotency.store.fence.remaining";

	/**
	 * Counter of keyed calls refused because fewer Redis replicas than
	 * {@code wait-for-replicas} acknowledged their {@code begin} in time.
	 */
	static final String UNREPLICATED = "mcp.gateway.idempotency.store.unreplicated";

	private RedisStoreMeters() {
	}

}
