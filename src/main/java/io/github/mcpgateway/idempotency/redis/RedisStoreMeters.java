package io.github.mcpgateway.idempotency.redis;

/** Names of the Redis store meters. */
final class RedisStoreMeters {

	/**
	 * Timer of store operations, tagged {@code operation} (begin, complete, tombstone,
	 * release, renew, stats) and {@code result} (ok, error): latency and error rate of
	 * the shared store.
	 */
	static final String OPERATIONS = "mcp.gateway.idempotency.store.operations";

	private RedisStoreMeters() {
	}

}
