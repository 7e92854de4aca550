package io.github.mcpgateway.tracing;

import io.opentelemetry.api.trace.Span;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.PipelineObserver.StageObservation;
import io.github.mcpgateway.request.StageDecision;

/**
 * The span of one stage's decision ({@code gateway.<stage>}, with
 * {@code mcp_gateway.stage}), a child of the server span, ended with how the stage
 * decided ({@code mcp_gateway.stage.outcome}: {@code continued}, {@code refused},
 * {@code answered}, {@code failed}) and what it recorded ({@link StageDescriptions}); a
 * refusal's {@code data.code} is its error ({@link GatewaySpans#failed}), a stage that
 * threw fails with {@code exception}.
 */
record StageSpan(Span span, String stage) implements StageObservation {

	@Override
	public void end(@Nullable StageDecision decision, McpRequestContext context) {
		if (this.span.isRecording()) {
			StageDescriptions.describe(this.stage, context, this.span::setAttribute);
			this.span.setAttribute(McpAttributes.GATEWAY_STAGE_OUTCOME, outcome(decision));
			if (decision instanceof StageDecision.Refuse refuse) {
				GatewaySpans.failed(this.span, refuse.error().code());
			}
			else if (decision == null) {
				GatewaySpans.failed(this.span, "exception");
			}
		}
		this.span.end();
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
