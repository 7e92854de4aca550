package io.github.mcpgateway.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.propagation.TextMapPropagator;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.McpStage;
import io.github.mcpgateway.request.PipelineObserver;
import io.github.mcpgateway.request.UpstreamObservation;

/**
 * Tracing as the pipeline's observer, through the OpenTelemetry API: the current span on
 * the request thread is the request's server span (Micrometer's bridge makes it current
 * for the servlet chain); the identity span ends when the pipeline takes over
 * ({@link IdentitySpans}); each stage's decision is a child span ({@link StageSpan}); the
 * upstream call is a client span ({@link ClientSpan}); a refusal or failure recorded on
 * the context marks the server span as an error with the gateway's {@code data.code}.
 *
 * <p>
 * Contract: a request whose server span is not sampled gets no stage spans (they would
 * not be recorded either), but its upstream call still carries a {@code traceparent}.
 * Only present with {@code gateway.tracing.enabled}.
 */
final class TracingObserver implements PipelineObserver {

	private final Tracer tracer;

	private final IdentitySpans identity;

	private final TextMapPropagator propagator;

	private final boolean writeMetaContext;

	/**
	 * @param writeMetaContext whether a message's {@code params._meta.traceparent} names
	 * the client span on the way upstream
	 * ({@code gateway.tracing.meta-context: propagate})
	 */
	TracingObserver(Tracer tracer, IdentitySpans identity, TextMapPropagator propagator, boolean writeMetaContext) {
		this.tracer = tracer;
		this.identity = identity;
		this.propagator = propagator;
		this.writeMetaContext = writeMetaContext;
	}

	@Override
	public void started(HttpServletRequest request, McpRequestContext context) {
		this.identity.identified(request, context.principal() != null);
	}

	@Override
	public StageObservation stage(McpStage stage, McpRequestContext context) {
		if (!Span.current().getSpanContext().isSampled()) {
			// An unrecorded trace: its child spans would be dropped too.
			return StageObservation.NONE;
		}
		Span span = this.tracer.spanBuilder(GatewaySpans.name(stage.name()))
			.setAttribute(McpAttributes.GATEWAY_STAGE, stage.name())
			.startSpan();
		return new StageSpan(span, stage.name());
	}

	@Override
	public void finished(McpRequestContext context) {
		if (context.errorCode() != null) {
			GatewaySpans.failed(Span.current(), context.errorCode());
		}
	}

	@Override
	public @Nullable TraceIds traceIds() {
		SpanContext context = Span.current().getSpanContext();
		return context.isValid() ? new TraceIds(context.getTraceId(), context.getSpanId()) : null;
	}

	@Override
	public UpstreamObservation upstream(McpRequestContext context) {
		return new ClientSpan(this.tracer, this.propagator, context.message(), this.writeMetaContext);
	}

}
