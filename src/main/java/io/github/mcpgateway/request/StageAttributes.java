package io.github.mcpgateway.request;

/**
 * The span attributes the stages describe their decisions with
 * ({@link McpStage#describe}); the gateway's own, under {@code mcp_gateway.}, as
 * operations.md lists them.
 */
public final class StageAttributes {

	/**
	 * The grant that allowed the request: {@code grants[i]} of the server, file order.
	 */
	public static final String GRANT = "mcp_gateway.grant";

	/**
	 * The Idempotency-Key outcome: {@code first}, {@code replay}, {@code conflict}, ...
	 */
	public static final String IDEMPOTENCY = "mcp_gateway.idempotency";

	/** How the upstream credential was obtained: {@code fetched}, {@code cached}, ... */
	public static final String UPSTREAM_AUTH = "mcp_gateway.upstream_auth";

	/** The server's upstream credential mode: {@code token-exchange}, ... */
	public static final String UPSTREAM_AUTH_MODE = "mcp_gateway.upstream_auth.mode";

	/** How the task stage handled the request: {@code created}, {@code allowed}, ... */
	public static final String TASK = "mcp_gateway.task";

	/** The limit that refused the request ({@code rate_limited}). */
	public static final String LIMIT = "mcp_gateway.limit";

	/** Whether the request is in a session: {@code true} or {@code false}. */
	public static final String IN_SESSION = "mcp_gateway.session.present";

	private StageAttributes() {
	}

}
