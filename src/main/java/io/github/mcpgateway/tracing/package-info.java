/**
 * OpenTelemetry tracing, off by default, and an observer of the pipeline, never a part of
 * it. {@link io.github.mcpgateway.tracing.TracingGate} keeps Spring Boot's tracing
 * auto-configuration out unless {@code gateway.tracing.enabled} is set; when it is on,
 * {@link io.github.mcpgateway.tracing.TracingConfiguration} wires the pipeline's observer
 * ({@code TracingObserver}, the {@code request.PipelineObserver}: a span per stage
 * decision, whose attributes {@code StageDescriptions} derives from the context, and the
 * upstream call as a client span, {@code ClientSpan}), the identity span around Spring
 * Security ({@code IdentitySpanFilter}, {@code IdentitySpans}), trace context from
 * {@code params._meta} ({@code MetaTraceContextFilter}), the server span's name and
 * attributes ({@code McpServerRequestConvention}), the sampler (how far a caller's
 * sampled flag is followed) and the exporters' failure log. No stage and nothing in
 * {@code proxy} depends on this package ({@code ArchitectureTest}).
 */
@NullMarked
package io.github.mcpgateway.tracing;

import org.jspecify.annotations.NullMarked;
