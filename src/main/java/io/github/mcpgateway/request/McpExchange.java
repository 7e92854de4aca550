package io.github.mcpgateway.request;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * One MCP request as a stage sees it: the request and response as the stages before it
 * left them (wrapped or not), and the request's context.
 *
 * @param request the request, as the stages before wrapped it
 * @param response the response, as the stages before wrapped it
 * @param context what the pipeline has learned about the request
 */
public record McpExchange(HttpServletRequest request, HttpServletResponse response, McpRequestContext context) {

	/** The same exchange with {@code request} and {@code response} in place. */
	McpExchange with(HttpServletRequest request, HttpServletResponse response) {
		return new McpExchange(request, response, this.context);
	}

}
