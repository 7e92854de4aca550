package io.github.mcpgateway.policy;

/** Names and tags of the policy meters (Prometheus adds {@code _total} to counters). */
final class PolicyMeters {

	/** Counter of reload attempts of a changed file, tagged {@code result=ok|failed}. */
	static final String RELOADS = "mcp.gateway.policy.reloads";

	/**
	 * Gauge: 1 while the latest read of the file was valid, 0 while a broken file is
	 * being kept out.
	 */
	static final String VALID = "mcp.gateway.policy.valid";

	/** Gauge: number of servers in the live policy. */
	static final String SERVERS = "mcp.gateway.policy.servers";

	private PolicyMeters() {
	}

}
