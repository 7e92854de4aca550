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

	/**
	 * Counter of the requests a virtual server answered (its own answers, refusals and
	 * the requests it routed or fanned out), tagged
	 * {@code virtual_server, method, decision, status}. Its member requests are counted
	 * under {@link #REQUESTS} as their members'.
	 */
	public static final String VIRTUAL_REQUESTS = "mcp.gateway.virtual.requests";

	/**
	 * Timer of the requests a virtual server answered, members included, tagged
	 * {@code virtual_server, method, decision}.
	 */
	public static final String VIRTUAL_REQUEST_DURATION = "mcp.gateway.virtual.request.duration";

	/**
	 * Counter of members that failed a virtual server while it answered a request (left
	 * out of a merged list or of the session, or unreachable), tagged
	 * {@code virtual_server, member, reason}.
	 */
	public static final String VIRTUAL_MEMBER_FAILURES = "mcp.gateway.virtual.member.failures";

	private GatewayMeters() {
	}

}
