package io.github.mcpgateway.tracing;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.request.CurrentTrace;

/**
 * The ids of Micrometer Tracing's current span: on the request thread inside the
 * pipeline, the request's server span.
 */
final class TracerCurrentTrace implements CurrentTrace {

	private final Tracer tracer;

	TracerCurrentTrace(Tracer tracer) {
		this.tracer = tracer;
	}

	@Override
	public @Nullable TraceIds current() {
		Span span = this.tracer.currentSpan();
		if (span == null) {
			return null;
		}
		TraceContext context = span.context();
		return new TraceIds(context.traceId(), context.spanId());
	}

}
