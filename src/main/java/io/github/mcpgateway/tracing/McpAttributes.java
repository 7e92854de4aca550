package io.github.mcpgateway.tracing;

/**
 * Span attribute names: the OpenTelemetry MCP semantic conventions
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/, status Development) where
 * they name one, the gateway's own under {@code mcp_gateway.*} otherwise.
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

	private McpAttributes() {
	}

}
