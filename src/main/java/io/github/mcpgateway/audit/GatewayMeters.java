package io.github.mcpgateway.audit;

/**
 * Names of the request meters (Prometheus renders dots as underscores and adds
 * {@code _total}).
 */
public final class GatewayMeters {

	/**
	 * Counter of governed requests, tagged
	 * {@code namespace, server, method, decision, status}.
	 */
	public static final String REQUESTS = "mcp.gateway.requests";

	/**
	 * Timer of governed requests end to end, tagged
	 * {@code namespace, server, method, decision}.
	 */
	public static final String REQUEST_DURATION = "mcp.gateway.request.duration";

	private GatewayMeters() {
	}

}
