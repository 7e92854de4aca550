package io.github.mcpgateway.tracing;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.redact.ShownText;

/**
 * What the MCP semantic conventions make of one JSON-RPC message, for the server span and
 * the upstream call's client span alike: the span name {@code {mcp.method.name} {target}}
 * (the target being the tool or prompt name, never a resource URI: its cardinality) and
 * the message's attributes ({@code mcp.method.name}, {@code gen_ai.tool.name} with
 * {@code gen_ai.operation.name}, {@code gen_ai.prompt.name}). Never arguments. Every
 * value is the caller's, so each is {@link ShownText#bounded bounded}.
 *
 * @see <a href="https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/">MCP semantic
 * conventions</a>
 */
final class McpSpans {

	private McpSpans() {
	}

	/** The instrumentation scope of the gateway's own spans. */
	public static final String INSTRUMENTATION_SCOPE = "io.github.mcpgateway";

	/** The tracer of the gateway's own spans. */
	public static Tracer tracer(OpenTelemetry openTelemetry) {
		return openTelemetry.getTracer(INSTRUMENTATION_SCOPE);
	}

	/**
	 * The span name of {@code message}, or {@code null} for a message without a method.
	 */
	public static @Nullable String name(JsonRpcMessage message) {
		if (message.method() == null) {
			return null;
		}
		String method = ShownText.bounded(message.method());
		String target = ShownText.bounded(message.isToolCall() ? message.toolName() : promptName(message));
		return (target != null) ? method + " " + target : method;
	}

	/** The message's attributes; none for a message without a method. */
	public static KeyValues attributes(JsonRpcMessage message) {
		if (message.method() == null) {
			return KeyValues.empty();
		}
		KeyValues values = KeyValues
			.of(KeyValue.of(McpAttributes.MCP_METHOD_NAME, ShownText.bounded(message.method())));
		if (message.isToolCall() && message.toolName() != null) {
			values = values.and(KeyValue.of(McpAttributes.GEN_AI_TOOL_NAME, ShownText.bounded(message.toolName())),
					KeyValue.of(McpAttributes.GEN_AI_OPERATION_NAME, "execute_tool"));
		}
		String prompt = promptName(message);
		if (prompt != null) {
			values = values.and(KeyValue.of(McpAttributes.GEN_AI_PROMPT_NAME, ShownText.bounded(prompt)));
		}
		return values;
	}

	private static @Nullable String promptName(JsonRpcMessage message) {
		if (!"prompts/get".equals(message.method()) || message.params() == null) {
			return null;
		}
		JsonNode name = message.params().get("name");
		return (name != null && name.isString()) ? name.stringValue() : null;
	}

}
