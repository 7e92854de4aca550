package io.github.mcpgateway.tracing;

/**
 * Span attribute names: the OpenTelemetry MCP semantic conventions
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/, status Development) where
 * they name one, the gateway's own under {@code mcp_gateway.*} otherwise, as
 * operations.md lists them.
 */
final class McpAttributes {

	static final String MCP_METHOD_NAME = "mcp.method.name";

	static final String MCP_PROTOCOL_VERSION = "mcp.protocol.version";

	static final String GEN_AI_TOOL_NAME = "gen_ai.tool.name";

	static final String GEN_AI_PROMPT_NAME = "gen_ai.prompt.name";

	static final String GEN_AI_OPERATION_NAME = "gen_ai.operation.name";

	static final String JSONRPC_REQUEST_ID = "jsonrpc.request.id";

	static final String ERROR_TYPE = "error.type";

	/** The server's {@code namespace/name} in the policy. */
	static final String MCP_SERVER = "mcp_gateway.server";

	/** The audit decision: allowed, denied, refused, ... */
	static final String GATEWAY_DECISION = "mcp_gateway.decision";

	/** The Idempotency-Key outcome of a keyed request: first, replay, conflict, ... */
	static final String GATEWAY_IDEMPOTENCY = "mcp_gateway.idempotency";

	/**
	 * The grant that allowed the request ({@code grants[i]} of the server, file order),
	 * or the grant whose condition refused it.
	 */
	static final String GATEWAY_GRANT = "mcp_gateway.grant";

	/** The limit that refused the request ({@code rate_limited}). */
	static final String GATEWAY_LIMIT = "mcp_gateway.limit";

	/** How the task stage handled the request: {@code created}, {@code allowed}, ... */
	static final String GATEWAY_TASK = "mcp_gateway.task";

	/** How the upstream credential was obtained: {@code fetched}, {@code cached}, ... */
	static final String GATEWAY_UPSTREAM_AUTH = "mcp_gateway.upstream_auth";

	/** The server's upstream credential mode: {@code token-exchange}, ... */
	static final String GATEWAY_UPSTREAM_AUTH_MODE = "mcp_gateway.upstream_auth.mode";

	/** Whether the request is in a session: {@code true} or {@code false}. */
	static final String GATEWAY_IN_SESSION = "mcp_gateway.session.present";

	/** A stage span's stage: identity, session, policy, idempotency, ... */
	static final String GATEWAY_STAGE = "mcp_gateway.stage";

	/** How a stage decided: continued, refused, answered (a replay), failed. */
	static final String GATEWAY_STAGE_OUTCOME = "mcp_gateway.stage.outcome";

	/** Whether identity found a verified principal: true or false. */
	static final String GATEWAY_IDENTITY_VERIFIED = "mcp_gateway.identity.verified";

	/** The HTTP status Spring Security answered with, when identity refused. */
	static final String HTTP_RESPONSE_STATUS_CODE = "http.response.status_code";

	private McpAttributes() {
	}

}
