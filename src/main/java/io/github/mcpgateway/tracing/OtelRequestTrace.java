package io.github.mcpgateway.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.request.CurrentTrace;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.McpStage;
import io.github.mcpgateway.request.StageDecision;

/**
 * The request's trace through the OpenTelemetry API: the current span on the request
 * thread is the request's server span (Micrometer's bridge makes it current for the
 * servlet chain), the stage spans are its children, and a refusal sets its status.
 *
 * <p>
 * Span names: {@code gateway.identity} and {@code gateway.<stage>}
 * ({@link McpStage#name()}), each with {@code mcp_gateway.stage}. A refused stage's span
 * has status {@code ERROR}, the {@code data.code} as {@code error.type} and as the status
 * description, as the server span has. A request whose server span is not sampled gets no
 * stage spans at all (they would not be recorded either).
 */
final class OtelRequestTrace implements CurrentTrace {

	/** The prefix of every stage span's name. */
	static final String SPAN_PREFIX = "gateway.";

	private final Tracer tracer;

	OtelRequestTrace(Tracer tracer) {
		this.tracer = tracer;
	}

	@Override
	public @Nullable TraceIds current() {
		SpanContext context = Span.current().getSpanContext();
		return context.isValid() ? new TraceIds(context.getTraceId(), context.getSpanId()) : null;
	}

	@Override
	public void identified(HttpServletRequest request, McpRequestContext context) {
		IdentitySpanFilter.identified(request, context.principal() != null);
	}

	@Override
	public StageSpan stage(McpStage stage) {
		if (!Span.current().getSpanContext().isSampled()) {
			// An unrecorded trace: its child spans would be dropped too.
			return StageSpan.NONE;
		}
		Span span = this.tracer.spanBuilder(SPAN_PREFIX + stage.name())
			.setAttribute(McpAttributes.GATEWAY_STAGE, stage.name())
			.startSpan();
		return (decision, context) -> {
			if (span.isRecording()) {
				stage.describe(context, span::setAttribute);
				span.setAttribute(McpAttributes.GATEWAY_STAGE_OUTCOME, outcome(decision));
				if (decision instanceof StageDecision.Refuse refuse) {
					failed(span, refuse.error().code());
				}
				else if (decision == null) {
					failed(span, "exception");
				}
			}
			span.end();
		};
	}

	@Override
	public void finished(McpRequestContext context) {
		if (context.errorCode() != null) {
			failed(Span.current(), context.errorCode());
		}
	}

	static void failed(Span span, String errorType) {
		span.setAttribute(McpAttributes.ERROR_TYPE, errorType);
		span.setStatus(StatusCode.ERROR, errorType);
	}

	private static String outcome(@Nullable StageDecision decision) {
		if (decision instanceof StageDecision.Refuse) {
			return "refused";
		}
		if (decision == StageDecision.answered()) {
			return "answered";
		}
		return (decision != null) ? "continued" : "failed";
	}

}
