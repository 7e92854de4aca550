package io.github.mcpgateway.tracing;

import java.io.IOException;
import java.net.URI;

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

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpResponse;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.request.UpstreamObservation;

/**
 * The upstream exchange as a client span, a child of the request's server span, named as
 * the MCP semantic conventions name an MCP client span ({@code tools/call get_weather},
 * {@link McpSpans}), whose {@code traceparent} (and {@code tracestate}) the upstream
 * receives in place of whatever the caller sent, which Spring Cloud Gateway copied over.
 *
 * <p>
 * Contract: the span starts in {@link #send}, after the proxy copied the caller's headers
 * and before they are sent, is current while the request is sent, and ends when the reply
 * is closed (its body relayed to the end, or abandoned: {@link ClientSpanResponse}), or
 * when the exchange fails; it ends once. It is made with the OpenTelemetry API, not as a
 * Micrometer observation, so the gateway's metrics are the same with tracing on and off
 * (no {@code http.client.requests} timer), and a call costs one span and no meter.
 *
 * <p>
 * With {@code writeMetaContext}, a request whose message carries
 * {@code params._meta.traceparent} reaches the upstream with this span's
 * {@code traceparent} in its place ({@link MetaTraceContext#rewrite}: the value's bytes
 * only, the body's length unchanged); the proxy then holds its body until {@code send},
 * when the span exists. Any other body is streamed through untouched.
 */
final class ClientSpan implements UpstreamObservation {

	private static final TextMapSetter<HttpHeaders> HEADERS = (headers, name, value) -> {
		if (headers != null) {
			headers.set(name, value);
		}
	};

	private final Tracer tracer;

	private final TextMapPropagator propagator;

	private final @Nullable JsonRpcMessage message;

	private final boolean writeMetaContext;

	ClientSpan(Tracer tracer, TextMapPropagator propagator, @Nullable JsonRpcMessage message,
			boolean writeMetaContext) {
		this.tracer = tracer;
		this.propagator = propagator;
		this.message = message;
		this.writeMetaContext = writeMetaContext;
	}

	@Override
	public boolean holdsBody() {
		return this.writeMetaContext && this.message != null && this.message.params() != null
				&& this.message.params().path("_meta").path(MetaTraceContext.TRACEPARENT).isString();
	}

	/** The held body with the client span's {@code traceparent} in its {@code _meta}. */
	@Override
	public byte[] body(HttpRequest request, byte[] held) {
		MetaTraceContext meta = MetaTraceContext.locate(held);
		String traceparent = request.getHeaders().getFirst(MetaTraceContext.TRACEPARENT);
		return (meta != null && traceparent != null) ? meta.rewrite(held, traceparent) : held;
	}

	@Override
	public ClientHttpResponse send(HttpRequest request, Call call) throws IOException {
		Span span = start(request);
		try (Scope scope = span.makeCurrent()) {
			this.propagator.inject(Context.current(), request.getHeaders(), HEADERS);
			ClientHttpResponse response = call.send();
			int status = response.getStatusCode().value();
			span.setAttribute(McpAttributes.HTTP_RESPONSE_STATUS_CODE, (long) status);
			if (status >= 400) {
				GatewaySpans.failed(span, Integer.toString(status));
			}
			return new ClientSpanResponse(response, span);
		}
		catch (IOException | RuntimeException ex) {
			span.setAttribute(McpAttributes.ERROR_TYPE, ex.getClass().getName());
			span.setStatus(StatusCode.ERROR, ex.getClass().getSimpleName());
			span.end();
			throw ex;
		}
	}

	private Span start(HttpRequest request) {
		String name = (this.message != null) ? McpSpans.name(this.message) : null;
		SpanBuilder span = this.tracer.spanBuilder((name != null) ? name : request.getMethod().name())
			.setSpanKind(SpanKind.CLIENT)
			.setAttribute("http.request.method", request.getMethod().name());
		if ("stdio".equals(request.getURI().getScheme())) {
			// A stdio server (ADR 0023): a child process over pipes, no address or port.
			span.setAttribute("network.transport", "pipe");
		}
		else {
			span.setAttribute("server.address", request.getURI().getHost())
				.setAttribute("server.port", (long) port(request.getURI()));
		}
		if (this.message != null) {
			for (KeyValue attribute : McpSpans.attributes(this.message)) {
				span.setAttribute(attribute.getKey(), attribute.getValue());
			}
		}
		return span.startSpan();
	}

	private static int port(URI uri) {
		return (uri.getPort() >= 0) ? uri.getPort() : ("https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80);
	}

}
