package io.github.mcpgateway.request;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.transport.McpHeaders;
import tools.jackson.databind.JsonNode;

/**
 * Checks the MCP 2026-07-28 routing headers against the body they summarise. That
 * revision lets intermediaries route on {@code Mcp-Method} and {@code Mcp-Name} without
 * reading the body, and requires one that does read it to reject a header that disagrees
 * (400 {@code header_mismatch}), because a policy decided on the body would otherwise
 * differ from what a header-routing hop sees.
 */
final class McpHeaderValidator {

	void validate(HttpServletRequest request, JsonRpcMessage message) {
		String method = request.getHeader(McpHeaders.METHOD);
		if (method != null && !method.equals(message.method())) {
			throw mismatch();
		}
		String name = request.getHeader(McpHeaders.NAME);
		if (name != null && !name.equals(nameOf(message))) {
			throw mismatch();
		}
	}

	/**
	 * The body value that {@code Mcp-Name} mirrors: {@code params.name}, or
	 * {@code params.uri} for resources, or {@code params.taskId} for tasks (the tasks
	 * extension, SEP-2663).
	 */
	private static @Nullable String nameOf(JsonRpcMessage message) {
		JsonNode params = message.params();
		String method = message.method();
		if (params == null || !params.isObject() || method == null) {
			return null;
		}
		JsonNode value = method.startsWith("resources/") ? params.get("uri")
				: method.startsWith("tasks/") ? params.get("taskId") : params.get("name");
		return (value != null && value.isString()) ? value.stringValue() : null;
	}

	private static GatewayErrorException mismatch() {
		return new GatewayErrorException(GatewayErrors.HEADER_MISMATCH);
	}

}
