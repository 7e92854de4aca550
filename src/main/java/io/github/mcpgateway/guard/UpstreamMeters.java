package io.github.mcpgateway.guard;

/**
 * Names of the upstream guard's meters. Circuit breaker and bulkhead meters are
 * Resilience4j's own ({@code resilience4j.circuitbreaker.*},
 * {@code resilience4j.bulkhead.*}), named by server.
 */
final class UpstreamMeters {

	/**
	 * Timer of upstream exchanges, body included, tagged {@code namespace, server} and
	 * {@code outcome} ({@code 2xx}..{@code 5xx}, {@code unreachable}, {@code timeout},
	 * {@code broken}, {@code pool_exhausted}, {@code client_gone}, {@code stream_ended},
	 * {@code error}).
	 */
	static final String UPSTREAM_DURATION = "mcp.gateway.upstream.duration";

	private UpstreamMeters() {
	}

}
