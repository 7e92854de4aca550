package io.github.mcpgateway.tracing;

import java.io.IOException;

import io.opentelemetry.api.trace.Span;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

import io.github.mcpgateway.routing.ServerLocator;

/**
 * Opens the identity span ({@link IdentitySpans}) of a sampled MCP request just ahead of
 * Spring Security. The pipeline's observer ends it when the pipeline takes the request
 * over; when Spring Security answered the request itself (no or a bad token, no
 * certificate) the span is still open on the way back, and this filter ends it with the
 * status Spring Security answered as the error of the span and of the server span.
 */
final class IdentitySpanFilter extends OncePerRequestFilter {

	private final IdentitySpans spans;

	private final ServerLocator servers;

	IdentitySpanFilter(IdentitySpans spans, ServerLocator servers) {
		this.spans = spans;
		this.servers = servers;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (!Span.current().getSpanContext().isSampled() || this.servers.serverOf(request) == null) {
			chain.doFilter(request, response);
			return;
		}
		this.spans.open(request);
		try {
			chain.doFilter(request, response);
		}
		finally {
			this.spans.answered(request, response.getStatus());
		}
	}

}
