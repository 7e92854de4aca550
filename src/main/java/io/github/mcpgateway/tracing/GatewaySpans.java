package io.github.mcpgateway.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;

/**
 * The gateway's own spans: their names ({@code gateway.identity},
 * {@code gateway.<stage>}) and how a refusal marks one. A refused span has status
 * {@code ERROR} with the {@code data.code} (or the HTTP status identity answered) as
 * {@code error.type} and as the status description, the MCP semantic conventions' rule;
 * no exception event, so no stack trace is exported.
 */
final class GatewaySpans {

	/** The prefix of every identity and stage span's name. */
	static final String PREFIX = "gateway.";

	private GatewaySpans() {
	}

	/** The name of the span of {@code stage} ({@code identity}, a stage's name). */
	static String name(String stage) {
		return PREFIX + stage;
	}

	/** Marks {@code span} as failed with {@code errorType}. */
	static void failed(Span span, String errorType) {
		span.setAttribute(McpAttributes.ERROR_TYPE, errorType);
		span.setStatus(StatusCode.ERROR, errorType);
	}

}
