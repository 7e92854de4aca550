package io.github.mcpgateway.tracing;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

import org.springframework.http.server.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.observation.ServerRequestObservationContext;

import io.github.mcpgateway.redact.ShownText;
import io.github.mcpgateway.request.McpRequestContext;

/**
 * Names the server span of an MCP request as the MCP semantic conventions do
 * ({@code {mcp.method.name} {target}}, the target being the tool or prompt name:
 * {@code tools/call get_weather}) and adds their attributes as high-cardinality key
 * values, which become span attributes and never metric tags:
 * {@code http.server.requests} keeps exactly its tags. Requests that are not MCP requests
 * keep Spring's name and attributes.
 *
 * <p>
 * Contract: no attribute holds a token, an Idempotency-Key, arguments or a result; the
 * values are the JSON-RPC method, the tool or prompt name, the request id, the protocol
 * revision and, on a refusal, the gateway's {@code data.code} as {@code error.type}; each
 * value, Spring's {@code http.url} included, {@link ShownText#bounded bounded}, since the
 * caller chooses most of them.
 *
 * @see <a href="https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/">MCP semantic
 * conventions</a>
 */
final class McpServerRequestConvention extends DefaultServerRequestObservationConvention {

	McpServerRequestConvention(String name) {
		super(name);
	}

	@Override
	public String getContextualName(ServerRequestObservationContext context) {
		McpRequestContext mcp = McpRequestContext.find(context.getCarrier());
		String name = (mcp != null && mcp.message() != null) ? McpSpans.name(mcp.message()) : null;
		return (name != null) ? name : super.getContextualName(context);
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(ServerRequestObservationContext context) {
		KeyValues values = super.getHighCardinalityKeyValues(context);
		McpRequestContext mcp = McpRequestContext.find(context.getCarrier());
		if (mcp == null) {
			return bounded(values);
		}
		values = values
			.and(KeyValue.of(McpAttributes.MCP_SERVER, mcp.server().namespace() + "/" + mcp.server().name()));
		if (mcp.message() != null) {
			values = values.and(McpSpans.attributes(mcp.message()));
		}
		if (mcp.requestId() != null && !mcp.requestId().isNull()) {
			values = values.and(KeyValue.of(McpAttributes.JSONRPC_REQUEST_ID, mcp.requestId().asString()));
		}
		String revision = context.getCarrier().getHeader("MCP-Protocol-Version");
		if (revision != null) {
			values = values.and(KeyValue.of(McpAttributes.MCP_PROTOCOL_VERSION, revision));
		}
		values = values.and(KeyValue.of(McpAttributes.GATEWAY_DECISION, mcp.decision().tag()));
		String idempotency = StageDescriptions.idempotency(mcp);
		if (idempotency != null) {
			values = values.and(KeyValue.of(McpAttributes.GATEWAY_IDEMPOTENCY, idempotency));
		}
		if (mcp.errorCode() != null) {
			values = values.and(KeyValue.of(McpAttributes.ERROR_TYPE, mcp.errorCode()));
		}
		return bounded(values);
	}

	private static KeyValues bounded(KeyValues values) {
		return KeyValues.of(values.stream()
			.map((value) -> KeyValue.of(value.getKey(), ShownText.bounded(value.getValue())))
			.toList());
	}

}
