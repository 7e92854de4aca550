package io.github.mcpgateway.quota;

/**
 * One token bucket a request draws on: a limit's bucket for one principal, team or
 * server.
 *
 * @param key the bucket's key in the store: names the server, the limit and who shares it
 * @param intervalNanos the time the bucket takes to gain one token
 * @param burst how many tokens it holds at most
 */
record QuotaBucket(String key, long intervalNanos, int burst) {

	/** The time a full bucket would take to refill from empty. */
	long capacityNanos() {
		return this.intervalNanos * this.burst;
	}

}
