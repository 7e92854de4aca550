package io.github.mcpgateway.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

/**
 * The identity span ({@code gateway.identity}) of each MCP request, handed from
 * {@link IdentitySpanFilter}, which opens it ahead of Spring Security, to
 * {@link TracingObserver}, which ends it when the pipeline takes the request over. The
 * open span is a request attribute of its own; whoever ends it removes it, so it ends
 * once.
 *
 * <p>
 * Contract: the span is never made current, so the stage spans and the upstream call are
 * children of the server span, not of identity.
 */
final class IdentitySpans {

	private static final String ATTRIBUTE = IdentitySpans.class.getName();

	private final Tracer tracer;

	IdentitySpans(Tracer tracer) {
		this.tracer = tracer;
	}

	/** Opens the identity span of {@code request}. */
	void open(HttpServletRequest request) {
		Span span = this.tracer.spanBuilder(GatewaySpans.name("identity"))
			.setAttribute(McpAttributes.GATEWAY_STAGE, "identity")
			.startSpan();
		request.setAttribute(ATTRIBUTE, span);
	}

	/** Ends the request's identity span, if it is still open: identity let it through. */
	void identified(HttpServletRequest request, boolean verified) {
		Span span = take(request);
		if (span != null) {
			span.setAttribute(McpAttributes.GATEWAY_IDENTITY_VERIFIED, verified);
			span.end();
		}
	}

	/**
	 * Ends the request's identity span, if it is still open: Spring Security answered the
	 * request itself with {@code status}, the error of the span and of the server span.
	 */
	void answered(HttpServletRequest request, int status) {
		Span span = take(request);
		if (span != null) {
			span.setAttribute(McpAttributes.GATEWAY_STAGE_OUTCOME, "refused");
			span.setAttribute(McpAttributes.HTTP_RESPONSE_STATUS_CODE, (long) status);
			GatewaySpans.failed(span, Integer.toString(status));
			span.end();
			GatewaySpans.failed(Span.current(), Integer.toString(status));
		}
	}

	private static @Nullable Span take(HttpServletRequest request) {
		if (request.getAttribute(ATTRIBUTE) instanceof Span span) {
			request.removeAttribute(ATTRIBUTE);
			return span;
		}
		return null;
	}

}
