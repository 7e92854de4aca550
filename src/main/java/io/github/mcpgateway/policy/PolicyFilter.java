package io.github.mcpgateway.policy;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.util.Assert;
import org.springframework.web.filter.OncePerRequestFilter;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.McpRequestContext.Decision;
import tools.jackson.databind.json.JsonMapper;

/**
 * The grant stage: decides from the live policy whether the caller may use the server
 * and, for a {@code tools/call}, the tool. A refusal is 403 with the request id echoed
 * and nothing is sent upstream. A {@code tools/list} reply is filtered to the tools the
 * caller may call; that request goes upstream without {@code Accept-Encoding}, so the
 * reply comes back in a form the gateway can read.
 *
 * <p>
 * The grants are read from the server the request context resolved, so one request is
 * decided against one policy snapshot even if a reload happens meanwhile.
 */
public final class PolicyFilter extends OncePerRequestFilter {

	private final GrantEvaluator grants;

	private final GatewayErrorRenderer errorRenderer;

	private final JsonMapper jsonMapper;

	private final int toolListMaxBytes;

	public PolicyFilter(GrantEvaluator grants, GatewayErrorRenderer errorRenderer, JsonMapper jsonMapper,
			PolicyProperties properties) {
		Assert.notNull(grants, "grants must not be null");
		Assert.notNull(errorRenderer, "errorRenderer must not be null");
		Assert.notNull(jsonMapper, "jsonMapper must not be null");
		this.grants = grants;
		this.errorRenderer = errorRenderer;
		this.jsonMapper = jsonMapper;
		this.toolListMaxBytes = (int) properties.toolListMaxSize().toBytes();
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return McpRequestContext.find(request) == null;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		McpRequestContext context = McpRequestContext.require(request);
		McpServerPolicy server = context.server();
		if (!this.grants.mayUseServer(server, context.principal())) {
			deny(request, response, context, GatewayErrors.SERVER_NOT_GRANTED);
			return;
		}
		JsonRpcMessage message = context.message();
		if (message != null && message.isToolCall()
				&& !this.grants.mayCallTool(server, context.principal(), message.toolName())) {
			deny(request, response, context, GatewayErrors.TOOL_NOT_GRANTED);
			return;
		}
		context.withDecision(Decision.ALLOWED, null).bind(request);
		if (message == null || !message.isToolList()) {
			chain.doFilter(request, response);
			return;
		}
		ToolListFilteringResponse filtering = new ToolListFilteringResponse(response,
				new ToolListRewriter(this.jsonMapper,
						(tool) -> this.grants.mayCallTool(server, context.principal(), tool)),
				this.toolListMaxBytes);
		chain.doFilter(new IdentityEncodingRequest(request), filtering);
		if (!filtering.finish()) {
			McpRequestContext.require(request)
				.withDecision(Decision.UPSTREAM_ERROR, GatewayErrors.UPSTREAM_REPLY_UNFILTERABLE.code())
				.bind(request);
			this.errorRenderer.render(response, GatewayErrors.UPSTREAM_REPLY_UNFILTERABLE, message.id());
		}
	}

	private void deny(HttpServletRequest request, HttpServletResponse response, McpRequestContext context,
			GatewayError error) throws IOException {
		context.withDecision(Decision.DENIED, error.code()).bind(request);
		this.errorRenderer.render(response, error, context.requestId());
	}

}
