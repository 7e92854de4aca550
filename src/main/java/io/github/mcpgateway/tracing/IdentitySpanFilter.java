package io.github.mcpgateway.tracing;

import java.io.IOException;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

import io.github.mcpgateway.routing.ServerLocator;

/**
 * The identity span ({@code gateway.identity}) of an MCP request: opened just ahead of
 * Spring Security, ended when the pipeline takes the request over ({@link #identified}),
 * or, when Spring Security answered the request itself (no or a bad token, no
 * certificate), here, with the status it answered as the error of the span and of the
 * server span.
 *
 * <p>
 * Contract: the span is never made current, so the stage spans and the upstream call are
 * children of the server span, not of identity; it ends once.
 */
final class IdentitySpanFilter extends OncePerRequestFilter {

	private static final String ATTRIBUTE = IdentitySpanFilter.class.getName();

	private final Tracer tracer;

	private final ServerLocator servers;

	IdentitySpanFilter(Tracer tracer, ServerLocator servers) {
		this.tracer = tracer;
		this.servers = servers;
	}

	/** Ends the request's identity span, if it has one that is still open. */
	static void identified(HttpServletRequest request, boolean verified) {
		if (request.getAttribute(ATTRIBUTE) instanceof Span span) {
			request.removeAttribute(ATTRIBUTE);
			span.setAttribute(McpAttributes.GATEWAY_IDENTITY_VERIFIED, verified);
			span.end();
		}
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (!Span.current().getSpanContext().isSampled() || this.servers.serverOf(request) == null) {
			chain.doFilter(request, response);
			return;
		}
		Span span = this.tracer.spanBuilder(OtelRequestTrace.SPAN_PREFIX + "identity")
			.setAttribute(McpAttributes.GATEWAY_STAGE, "identity")
			.startSpan();
		request.setAttribute(ATTRIBUTE, span);
		try {
			chain.doFilter(request, response);
		}
		finally {
			if (request.getAttribute(ATTRIBUTE) == span) {
				request.removeAttribute(ATTRIBUTE);
				span.setAttribute(McpAttributes.GATEWAY_STAGE_OUTCOME, "refused");
				span.setAttribute(McpAttributes.HTTP_RESPONSE_STATUS_CODE, (long) response.getStatus());
				OtelRequestTrace.failed(span, Integer.toString(response.getStatus()));
				span.end();
				OtelRequestTrace.failed(Span.current(), Integer.toString(response.getStatus()));
			}
		}
	}

}
