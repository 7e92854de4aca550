package io.github.mcpgateway.request;

import jakarta.servlet.http.HttpServletRequest;

import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;

/**
 * The request stage's header checks, for an endpoint that reads the request itself (a
 * virtual server's): every header readable, the ones the gateway decides on sent once,
 * and the MCP routing headers ({@code MCP-Protocol-Version}, {@code Mcp-Method},
 * {@code Mcp-Name}) agreeing with the body ({@link McpHeaderValidator}). A refusal is the
 * one a server's path answers, thrown as a {@link GatewayErrorException}.
 */
public final class McpRequestHeaders {

	private static final McpHeaderValidator VALIDATOR = new McpHeaderValidator();

	private McpRequestHeaders() {
	}

	/**
	 * Refuses {@code request}, whose body is {@code message}, as the request stage would.
	 */
	public static void check(HttpServletRequest request, JsonRpcMessage message) {
		RequestAdmission.checkHeaders(request);
		VALIDATOR.validate(request, message);
	}

}
