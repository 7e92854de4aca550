package io.github.mcpgateway.transport;

/** Names of the HTTP headers of MCP Streamable HTTP and of the gateway's contract. */
public final class McpHeaders {

	/** The MCP session id (MCP Streamable HTTP, session management). */
	/** The SSE resumption header: the last event id a client saw on a stream. */
	public static final String LAST_EVENT_ID = "Last-Event-ID";

	public static final String SESSION_ID = "Mcp-Session-Id";

	/** The negotiated MCP revision, sent on every request after initialization. */
	public static final String PROTOCOL_VERSION = "MCP-Protocol-Version";

	/** The JSON-RPC method, repeated as a header (MCP 2026-07-28). */
	public static final String METHOD = "Mcp-Method";

	/** The tool name or resource URI, repeated as a header (MCP 2026-07-28). */
	public static final String NAME = "Mcp-Name";

	/** The opt-in key of the gateway's Idempotency-Key contract. */
	public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

	/** Marks a reply the Idempotency-Key stage replayed from its store. */
	public static final String IDEMPOTENCY_REPLAYED = "Idempotency-Replayed";

	private McpHeaders() {
	}

}
