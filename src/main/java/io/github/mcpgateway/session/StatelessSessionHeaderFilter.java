package io.github.mcpgateway.session;

import org.springframework.cloud.gateway.server.mvc.filter.HttpHeadersFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.function.ServerRequest;

import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.transport.McpRevisions;

/**
 * Keeps an {@code Mcp-Session-Id} of a stateless request (2026-07-28) from the upstream.
 * That revision has no sessions, so the session stage checks no binding for such a
 * request; an upstream that also speaks the 2025 revisions might still honour the id, and
 * would then serve a session the gateway never checked was the caller's.
 */
final class StatelessSessionHeaderFilter implements HttpHeadersFilter.RequestHttpHeadersFilter {

	@Override
	public HttpHeaders apply(HttpHeaders input, ServerRequest request) {
		if (!input.containsHeader(McpHeaders.SESSION_ID) || !McpRevisions.isStateless(request.servletRequest())) {
			return input;
		}
		HttpHeaders filtered = new HttpHeaders();
		filtered.putAll(input);
		filtered.remove(McpHeaders.SESSION_ID);
		return filtered;
	}

}
