package io.github.mcpgateway.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.common.KeyValue;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.tracing.McpSpans;
import io.github.mcpgateway.tracing.MetaTraceContext;

/**
 * The upstream exchange as a client span, a child of the request's server span, named as
 * the MCP semantic conventions name an MCP client span ({@code tools/call get_weather},
 * {@link McpSpans}), whose {@code traceparent} (and {@code tracestate}) the upstream
 * receives in place of whatever the caller sent, which Spring Cloud Gateway copies over.
 * Used only when the gateway traces ({@code gateway.tracing.enabled}).
 *
 * <p>
 * Contract: the span starts in {@link ClientHttpRequest#execute()}, after the proxy
 * copied the caller's headers and before they are sent, and ends when the reply is closed
 * (its body relayed to the end, or abandoned), or when the exchange fails; it ends once.
 * It is made with the OpenTelemetry API, not as a Micrometer observation, so the
 * gateway's metrics are the same with tracing on and off (no {@code http.client.requests}
 * timer), and a call costs one span and no meter.
 *
 * <p>
 * With {@code writeMetaContext}, a request whose message carries
 * {@code params._meta.traceparent} reaches the upstream with this span's
 * {@code traceparent} in its place ({@link MetaTraceContext#rewrite}: the value's bytes
 * only, the body's length unchanged); its body is then held in memory until
 * {@code execute()}, when the span exists. Any other body is streamed through untouched.
 */
final class TracedRequestFactory implements ClientHttpRequestFactory {

	private static final TextMapSetter<HttpHeaders> HEADERS = (headers, name, value) -> {
		if (headers != null) {
			headers.set(name, value);
		}
	};

	private final ClientHttpRequestFactory delegate;

	private final Tracer tracer;

	private final TextMapPropagator propagator;

	private final boolean writeMetaContext;

	TracedRequestFactory(ClientHttpRequestFactory delegate, Tracer tracer, TextMapPropagator propagator,
			boolean writeMetaContext) {
		this.delegate = delegate;
		this.tracer = tracer;
		this.propagator = propagator;
		this.writeMetaContext = writeMetaContext;
	}

	@Override
	public ClientHttpRequest createRequest(URI uri, HttpMethod httpMethod) throws IOException {
		return new TracedRequest(this.delegate.createRequest(uri, httpMethod));
	}

	private Span start(ClientHttpRequest request) {
		JsonRpcMessage message = ProxiedRequest.message();
		String name = (message != null) ? McpSpans.name(message) : null;
		SpanBuilder span = this.tracer.spanBuilder((name != null) ? name : request.getMethod().name())
			.setSpanKind(SpanKind.CLIENT)
			.setAttribute("http.request.method", request.getMethod().name())
			.setAttribute("server.address", request.getURI().getHost())
			.setAttribute("server.port", (long) port(request.getURI()));
		if (message != null) {
			for (KeyValue attribute : McpSpans.attributes(message)) {
				span.setAttribute(attribute.getKey(), attribute.getValue());
			}
		}
		return span.startSpan();
	}

	private static int port(URI uri) {
		return (uri.getPort() >= 0) ? uri.getPort() : ("https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80);
	}

	private static boolean carriesMetaTraceparent() {
		JsonRpcMessage message = ProxiedRequest.message();
		JsonNode params = (message != null) ? message.params() : null;
		return params != null && params.path("_meta").path(MetaTraceContext.TRACEPARENT).isString();
	}

	private final class TracedRequest implements ClientHttpRequest {

		private final ClientHttpRequest request;

		private @Nullable ByteArrayOutputStream heldBody;

		TracedRequest(ClientHttpRequest request) {
			this.request = request;
		}

		@Override
		public ClientHttpResponse execute() throws IOException {
			Span span = start(this.request);
			try (Scope scope = span.makeCurrent()) {
				TracedRequestFactory.this.propagator.inject(Context.current(), this.request.getHeaders(), HEADERS);
				writeHeldBody();
				ClientHttpResponse response = this.request.execute();
				int status = response.getStatusCode().value();
				span.setAttribute("http.response.status_code", (long) status);
				if (status >= 400) {
					span.setAttribute("error.type", Integer.toString(status));
					span.setStatus(StatusCode.ERROR, Integer.toString(status));
				}
				return new TracedResponse(response, span);
			}
			catch (IOException | RuntimeException ex) {
				span.setAttribute("error.type", ex.getClass().getName());
				span.setStatus(StatusCode.ERROR, ex.getClass().getSimpleName());
				span.end();
				throw ex;
			}
		}

		@Override
		public OutputStream getBody() throws IOException {
			if (this.heldBody == null && TracedRequestFactory.this.writeMetaContext && carriesMetaTraceparent()) {
				this.heldBody = new ByteArrayOutputStream();
			}
			return (this.heldBody != null) ? this.heldBody : this.request.getBody();
		}

		/** The held body, with the client span's traceparent in its {@code _meta}. */
		private void writeHeldBody() throws IOException {
			if (this.heldBody == null) {
				return;
			}
			byte[] body = this.heldBody.toByteArray();
			MetaTraceContext meta = MetaTraceContext.locate(body);
			String traceparent = this.request.getHeaders().getFirst(MetaTraceContext.TRACEPARENT);
			if (meta != null && traceparent != null) {
				body = meta.rewrite(body, traceparent);
			}
			this.request.getBody().write(body);
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.request.getHeaders();
		}

		@Override
		public HttpMethod getMethod() {
			return this.request.getMethod();
		}

		@Override
		public URI getURI() {
			return this.request.getURI();
		}

		@Override
		public Map<String, Object> getAttributes() {
			return this.request.getAttributes();
		}

	}

	private static final class TracedResponse implements ClientHttpResponse {

		private final ClientHttpResponse response;

		private final Span span;

		private final AtomicBoolean ended = new AtomicBoolean();

		TracedResponse(ClientHttpResponse response, Span span) {
			this.response = response;
			this.span = span;
		}

		@Override
		public HttpStatusCode getStatusCode() throws IOException {
			return this.response.getStatusCode();
		}

		@Override
		public String getStatusText() throws IOException {
			return this.response.getStatusText();
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.response.getHeaders();
		}

		@Override
		public InputStream getBody() throws IOException {
			return this.response.getBody();
		}

		@Override
		public void close() {
			try {
				this.response.close();
			}
			finally {
				if (this.ended.compareAndSet(false, true)) {
					this.span.end();
				}
			}
		}

	}

}
