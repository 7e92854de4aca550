package io.github.mcpgateway.request;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A pipeline stage after the request stage: runs only for MCP requests (those with an
 * {@link McpRequestContext}), and only when {@link #appliesTo} says so; every other
 * request passes through untouched.
 */
public abstract class McpStageFilter extends OncePerRequestFilter {

	@Override
	protected final boolean shouldNotFilter(HttpServletRequest request) {
		McpRequestContext context = McpRequestContext.find(request);
		return context == null || !appliesTo(request, context);
	}

	@Override
	protected final void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		doFilter(request, response, chain, McpRequestContext.require(request));
	}

	/** Whether the stage handles this MCP request; by default, every one. */
	protected boolean appliesTo(HttpServletRequest request, McpRequestContext context) {
		return true;
	}

	protected abstract void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain,
			McpRequestContext context) throws ServletException, IOException;

}
