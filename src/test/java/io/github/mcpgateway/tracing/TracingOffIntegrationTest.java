package io.github.mcpgateway.tracing;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

import io.github.mcpgateway.support.GatewayIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default, tracing off: no OpenTelemetry SDK, tracer provider, span processor (whose
 * worker is the exporter thread), exporter or tracing handler in the context after MCP
 * requests went through. (Threads are not checked here: other test contexts in this JVM
 * may trace.)
 */
class TracingOffIntegrationTest extends GatewayIntegrationTest {

	@Autowired
	ApplicationContext context;

	@Test
	void noTracerSpanProcessorExporterOrTracingHandlerAndLogLinesWithoutTraceIds() {
		assertThat(post("/mcp/test/echo", validToken(), toolCall(1, "echo")).statusCode()).isEqualTo(200);

		assertThat(this.context.getBeanNamesForType(io.opentelemetry.sdk.trace.SdkTracerProvider.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(io.opentelemetry.api.OpenTelemetry.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(io.opentelemetry.sdk.trace.SpanProcessor.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(io.opentelemetry.sdk.trace.export.SpanExporter.class)).isEmpty();
		assertThat(
				this.context.getBeanNamesForType(io.micrometer.tracing.handler.DefaultTracingObservationHandler.class))
			.isEmpty();
		// What Spring Boot reads when it builds the log pattern (once per JVM, so the log
		// lines themselves depend on which test context started first).
		assertThat(this.context.getEnvironment().getProperty("logging.expect-correlation-id", Boolean.class))
			.as("no correlation-id column in log lines")
			.isFalse();
	}

}
