package io.github.mcpgateway.proxy;

import io.micrometer.common.KeyValues;

import org.springframework.http.client.observation.ClientRequestObservationContext;
import org.springframework.http.client.observation.DefaultClientRequestObservationConvention;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.tracing.McpSpans;

/**
 * Names the upstream call's client span as the MCP semantic conventions name an MCP
 * client span ({@code tools/call get_weather}) and adds the message's attributes
 * ({@link McpSpans}) as high-cardinality values (the {@code http.client.requests} metric
 * keeps Spring's tags). The request being proxied is the {@link ProxiedRequest}.
 */
final class UpstreamCallConvention extends DefaultClientRequestObservationConvention {

	@Override
	public String getContextualName(ClientRequestObservationContext context) {
		JsonRpcMessage message = ProxiedRequest.message();
		String name = (message != null) ? McpSpans.name(message) : null;
		return (name != null) ? name : super.getContextualName(context);
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(ClientRequestObservationContext context) {
		KeyValues values = super.getHighCardinalityKeyValues(context);
		JsonRpcMessage message = ProxiedRequest.message();
		return (message != null) ? values.and(McpSpans.attributes(message)) : values;
	}

}
