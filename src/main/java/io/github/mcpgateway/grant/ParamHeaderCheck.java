package io.github.mcpgateway.grant;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.StageDecision;

/**
 * The {@code Mcp-Param-*} job of the grant stage: a stateless (2026-07-28)
 * {@code tools/call} whose {@code Mcp-Param-*} headers disagree with its arguments, as
 * far as the tool's {@code x-mcp-header} annotations are known
 * ({@link ToolHeaderAnnotations}, learned by {@link ListFilters} from the
 * {@code tools/list} replies it filters), is refused 400 {@code header_mismatch}. Any
 * other request passes unchecked.
 */
final class ParamHeaderCheck {

	private final ToolHeaderAnnotations annotations;

	ParamHeaderCheck(ToolHeaderAnnotations annotations) {
		Assert.notNull(annotations, "annotations must not be null");
		this.annotations = annotations;
	}

	/** The refusal of a call whose headers disagree; {@code null} otherwise. */
	@Nullable StageDecision decide(McpExchange exchange) {
		McpRequestContext context = exchange.context();
		JsonRpcMessage message = context.message();
		if (message == null || !message.isToolCall() || !context.stateless()) {
			return null;
		}
		boolean agree = this.annotations.agree(exchange.request(), context.server().identityKey(), message.toolName(),
				message.params().get("arguments"));
		return agree ? null : StageDecision.refuse(GatewayErrors.HEADER_MISMATCH);
	}

}
