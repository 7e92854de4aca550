package io.github.mcpgateway.stdio;

import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.transport.UpstreamCall;

/**
 * One HTTP request of the Streamable HTTP transport, as the proxy sends it to a stdio
 * server ({@link StdioTransport}).
 *
 * @param server the server, as the policy snapshot the request was routed with has it
 * @param human the verified principal's human, {@code null} on a server without one
 * @param method the HTTP method
 * @param sessionId the {@code Mcp-Session-Id} the request carries
 * @param protocolVersion the {@code MCP-Protocol-Version} the request carries
 * @param body the request body (empty for {@code GET} and {@code DELETE})
 * @param onDispatch receives the exchange once it reached the process, so that the
 * gateway can give it up from another thread
 */
public record StdioRequest(McpServerPolicy server, @Nullable String human, String method, @Nullable String sessionId,
		@Nullable String protocolVersion, byte[] body, Consumer<UpstreamCall> onDispatch) {
}
