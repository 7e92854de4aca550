package io.github.mcpgateway.proxy;

import io.micrometer.common.KeyValues;
import org.jspecify.annotations.Nullable;

import org.springframework.http.client.observation.ClientRequestObservationContext;
import org.springframework.http.client.observation.DefaultClientRequestObservationConvention;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.tracing.McpSpans;

/**
 * Names the upstream call's client span as the MCP semantic conventions name an MCP
 * client span ({@code tools/call get_weather}) and adds the message's attributes
 * ({@link McpSpans}) as high-cardinality values (the {@code http.client.requests} metric
 * keeps Spring's tags). The request being proxied is found as
 * {@link AbortableRequestFactory} finds it, in {@link RequestContextHolder}.
 */
final class UpstreamCallConvention extends DefaultClientRequestObservationConvention {

	@Override
	public String getContextualName(ClientRequestObservationContext context) {
		JsonRpcMessage message = message();
		String name = (message != null) ? McpSpans.name(message) : null;
		return (name != null) ? name : super.getContextualName(context);
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(ClientRequestObservationContext context) {
		KeyValues values = super.getHighCardinalityKeyValues(context);
		JsonRpcMessage message = message();
		return (message != null) ? values.and(McpSpans.attributes(message)) : values;
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
