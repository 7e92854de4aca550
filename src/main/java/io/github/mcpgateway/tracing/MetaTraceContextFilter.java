package io.github.mcpgateway.tracing;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.web.filter.OncePerRequestFilter;

import io.github.mcpgateway.request.RequestBodyReader;
import io.github.mcpgateway.routing.ServerLocator;

/**
 * Trace context from {@code params._meta} when the HTTP headers carry none: ahead of
 * Spring's server observation (which opens the request's server span from the headers),
 * reads the body of an MCP POST that has no {@code traceparent} header and shows the
 * {@code _meta.traceparent} (and {@code tracestate}) it carries as those headers, so the
 * server span joins the trace the MCP client put in the message. The headers win when
 * both are present (docs/adr/0016): they are what the hop that sent the HTTP request, and
 * every proxy on the way, agree on.
 *
 * <p>
 * Contract: only with tracing on and {@code gateway.tracing.meta-context: propagate};
 * reads only a JSON body whose declared {@code Content-Length} is within
 * {@code gateway.request.max-body-size} (anything else passes untouched, for the pipeline
 * to decide as before); refuses nothing; the pipeline reads the same bytes from memory
 * ({@link RequestBodyReader#READ_AHEAD}: no request wrapper unless the context was
 * found). (The upstream call writes its own span's {@code traceparent} back into
 * {@code _meta}, whichever way the context came: {@link ClientSpan}.)
 */
final class MetaTraceContextFilter extends OncePerRequestFilter {

	private final ServerLocator servers;

	private final long maxBodyBytes;

	MetaTraceContextFilter(ServerLocator servers, long maxBodyBytes) {
		this.servers = servers;
		this.maxBodyBytes = maxBodyBytes;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		long length = request.getContentLengthLong();
		if (!"POST".equals(request.getMethod()) || request.getHeader(MetaTraceContext.TRACEPARENT) != null
				|| length <= 0 || length > this.maxBodyBytes || !RequestBodyReader.isJson(request.getContentType())
				|| this.servers.serverOf(request) == null) {
			chain.doFilter(request, response);
			return;
		}
		byte[] body;
		try (InputStream in = request.getInputStream()) {
			body = in.readNBytes((int) length);
		}
		request.setAttribute(RequestBodyReader.READ_AHEAD, body);
		MetaTraceContext context = MetaTraceContext.locate(body);
		chain.doFilter((context != null) ? new TraceHeaders(request, context) : request, response);
	}

	/** The request with {@code _meta}'s trace context as its W3C headers. */
	private static final class TraceHeaders extends HttpServletRequestWrapper {

		private final MetaTraceContext context;

		TraceHeaders(HttpServletRequest request, MetaTraceContext context) {
			super(request);
			this.context = context;
		}

		@Override
		public @Nullable String getHeader(String name) {
			String value = value(name);
			return (value != null) ? value : super.getHeader(name);
		}

		@Override
		public Enumeration<String> getHeaders(String name) {
			String value = value(name);
			return (value != null) ? Collections.enumeration(List.of(value)) : super.getHeaders(name);
		}

		@Override
		public Enumeration<String> getHeaderNames() {
			List<String> names = Collections.list(super.getHeaderNames());
			List<String> all = new ArrayList<>(names);
			addIfAbsent(all, MetaTraceContext.TRACEPARENT);
			if (this.context.tracestate() != null) {
				addIfAbsent(all, MetaTraceContext.TRACESTATE);
			}
			return Collections.enumeration(all);
		}

		private @Nullable String value(String name) {
			if (MetaTraceContext.TRACEPARENT.equalsIgnoreCase(name)) {
				return this.context.traceparent();
			}
			if (MetaTraceContext.TRACESTATE.equalsIgnoreCase(name) && super.getHeader(name) == null) {
				return this.context.tracestate();
			}
			return null;
		}

		private static void addIfAbsent(List<String> names, String name) {
			if (names.stream().noneMatch(name::equalsIgnoreCase)) {
				names.add(name);
			}
		}

	}

}
