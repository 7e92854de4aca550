package io.github.mcpgateway.request;

import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.transport.HeaderValues;
import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.transport.McpRevisions;

/**
 * Checks the MCP routing headers against the body they summarise (2026-07-28,
 * {@code basic/transports/streamable-http}, "Request Metadata" and "Server Validation").
 * That revision lets intermediaries route on {@code Mcp-Method} and {@code Mcp-Name}
 * without reading the body, and requires whoever reads it to reject a header that is
 * missing or disagrees (400, JSON-RPC {@code -32020} HeaderMismatch), because a policy
 * decided on the body would otherwise differ from what a header-routing hop sees.
 * <ul>
 * <li>{@code MCP-Protocol-Version} must equal the body's
 * {@code params._meta["io.modelcontextprotocol/protocolVersion"]} wherever either names a
 * stateless revision and the body has one (a body without it is the upstream's to refuse,
 * with -32602).</li>
 * <li>{@code Mcp-Method} must equal {@code method}; on a stateless request it is
 * required.</li>
 * <li>{@code Mcp-Name} must equal {@code params.name} ({@code tools/call},
 * {@code prompts/get}), {@code params.uri} ({@code resources/*}) or {@code params.taskId}
 * ({@code tasks/*}, the tasks extension, SEP-2663), after decoding its Base64 form
 * {@code =?base64?...?=}; on a stateless {@code tools/call}, {@code prompts/get},
 * {@code resources/read}, {@code tasks/get}, {@code tasks/update} or {@code tasks/cancel}
 * it is required.</li>
 * </ul>
 * Requests of the 2025 revisions are checked only where they carry these headers.
 */
final class McpHeaderValidator {

	/** Stateless requests whose {@code Mcp-Name} is required. */
	private static final Set<String> NAMED = Set.of(JsonRpcMessage.TOOLS_CALL, "prompts/get", "resources/read",
			"tasks/get", "tasks/update", "tasks/cancel");

	void validate(HttpServletRequest request, JsonRpcMessage message) {
		String version = request.getHeader(McpHeaders.PROTOCOL_VERSION);
		String bodyVersion = bodyVersion(message);
		boolean stateless = McpRevisions.isStateless(version);
		// A body without its protocol version is the body's fault, not a header's: the
		// upstream answers it (-32602, invalid _meta).
		if (bodyVersion != null && (stateless || McpRevisions.isStateless(bodyVersion))
				&& !bodyVersion.equals(version)) {
			throw mismatch();
		}
		boolean isRequest = message.kind() == JsonRpcMessage.Kind.REQUEST;
		String method = request.getHeader(McpHeaders.METHOD);
		if (method == null ? stateless && isRequest : !method.equals(message.method())) {
			throw mismatch();
		}
		String name = request.getHeader(McpHeaders.NAME);
		if (name == null) {
			if (stateless && isRequest && NAMED.contains(message.method())) {
				throw mismatch();
			}
			return;
		}
		String expected = nameOf(message);
		if (expected == null || !HeaderValues.decode(name).map(expected::equals).orElse(false)) {
			throw mismatch();
		}
	}

	private static @Nullable String bodyVersion(JsonRpcMessage message) {
		JsonNode params = message.params();
		JsonNode version = (params != null) ? params.path("_meta").get(McpRevisions.META_PROTOCOL_VERSION) : null;
		return (version != null && version.isString()) ? version.stringValue() : null;
	}

	/**
	 * The body value that {@code Mcp-Name} mirrors: {@code params.name}, or
	 * {@code params.uri} for resources, or {@code params.taskId} for tasks.
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
