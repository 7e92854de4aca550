package io.github.mcpgateway.proxy;

import org.jspecify.annotations.Nullable;

import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import io.github.mcpgateway.request.McpRequestContext;

/**
 * The MCP request the proxy is sending on, as the client-side parts of the proxy find it:
 * Spring's client adapter gives them no servlet request, so it is taken from
 * {@link RequestContextHolder}, which Spring Boot's {@code RequestContextFilter} fills
 * for every request (order {@code -105}, ahead of the whole pipeline; see
 * docs/architecture.md).
 */
final class ProxiedRequest {

	private ProxiedRequest() {
	}

	/** The request's context, or {@code null} off a request thread or off an MCP path. */
	static @Nullable McpRequestContext context() {
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		return (attributes instanceof ServletRequestAttributes servlet) ? McpRequestContext.find(servlet.getRequest())
				: null;
	}

}
