package io.github.mcpgateway.request;

import java.io.IOException;

import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.transport.McpMetaKeys;

/**
 * How the gateway refuses an MCP request: records the refusal on the request's
 * {@link McpRequestContext} (for the audit line and the meters; the decision follows from
 * the error) and answers in the one error shape, with the request id echoed. The pipeline
 * refuses for its stages; a {@link Completion} refuses through it when what happened
 * after dispatch is the gateway's to answer (an upstream failure, a reply it cannot
 * filter).
 */
public final class Refusals {

	private final GatewayErrorRenderer renderer;

	public Refusals(GatewayErrorRenderer renderer) {
		Assert.notNull(renderer, "renderer must not be null");
		this.renderer = renderer;
	}

	public void refuse(McpExchange exchange, GatewayError error) throws IOException {
		refuse(exchange.context(), exchange.response(), error, null);
	}

	/**
	 * @param reason why, for the audit line, where the error code alone does not say
	 */
	public void refuse(McpRequestContext context, HttpServletResponse response, GatewayError error,
			@Nullable RefusalReason reason) throws IOException {
		context.refused(error, reason);
		this.renderer.render(response, error, context.requestId(),
				McpMetaKeys.idempotencyKeyIn(context.message()) != null);
	}

}
