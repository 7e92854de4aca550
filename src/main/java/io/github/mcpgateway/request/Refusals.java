package io.github.mcpgateway.request;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.request.McpRequestContext.Decision;

/**
 * How every stage refuses an MCP request: records the decision on the request's
 * {@link McpRequestContext} (for the audit line and the meters) and answers in the one
 * error shape, with the request id echoed.
 */
public final class Refusals {

	private final GatewayErrorRenderer renderer;

	public Refusals(GatewayErrorRenderer renderer) {
		Assert.notNull(renderer, "renderer must not be null");
		this.renderer = renderer;
	}

	public void refuse(HttpServletRequest request, HttpServletResponse response, Decision decision, GatewayError error)
			throws IOException {
		refuse(request, response, decision, error, null);
	}

	/**
	 * @param reason why, for the audit line, where the error code alone does not say
	 */
	public void refuse(HttpServletRequest request, HttpServletResponse response, Decision decision, GatewayError error,
			@Nullable String reason) throws IOException {
		McpRequestContext context = McpRequestContext.require(request);
		context.decide(decision, error, reason);
		this.renderer.render(response, error, context.requestId());
	}

}
