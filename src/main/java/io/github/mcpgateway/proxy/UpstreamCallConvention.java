package io.github.mcpgateway.proxy;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import org.jspecify.annotations.Nullable;

import org.springframework.http.client.observation.ClientRequestObservationContext;
import org.springframework.http.client.observation.DefaultClientRequestObservationConvention;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.request.McpRequestContext;

/**
 * Names the upstream call's client span as the MCP semantic conventions name an MCP
 * client span ({@code tools/call get_weather}) and adds {@code mcp.method.name} and
 * {@code gen_ai.tool.name} as span attributes (high cardinality: the
 * {@code http.client.requests} metric keeps Spring's tags). The request being proxied is
 * found as {@link AbortableRequestFactory} finds it, in {@link RequestContextHolder}.
 */
final class UpstreamCallConvention extends DefaultClientRequestObservationConvention {

	@Override
	public String getContextualName(ClientRequestObservationContext context) {
		JsonRpcMessage message = message();
		if (message == null || message.method() == null) {
			return super.getContextualName(context);
		}
		return (message.isToolCall() && message.toolName() != null) ? message.method() + " " + message.toolName()
				: message.method();
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(ClientRequestObservationContext context) {
		KeyValues values = super.getHighCardinalityKeyValues(context);
		JsonRpcMessage message = message();
		if (message == null || message.method() == null) {
			return values;
		}
		values = values.and(KeyValue.of("mcp.method.name", message.method()));
		if (message.isToolCall() && message.toolName() != null) {
			values = values.and(KeyValue.of("gen_ai.tool.name", message.toolName()));
		}
		return values;
	}

	private static @Nullable JsonRpcMessage message() {
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		if (attributes instanceof ServletRequestAttributes servlet) {
			McpRequestContext context = McpRequestContext.find(servlet.getRequest());
			return (context != null) ? context.message() : null;
		}
		return null;
	}

}
