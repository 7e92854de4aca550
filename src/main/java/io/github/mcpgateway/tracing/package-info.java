/**
 * OpenTelemetry tracing, off by default: {@link io.github.mcpgateway.tracing.TracingGate}
 * keeps Spring Boot's tracing auto-configuration out unless
 * {@code gateway.tracing.enabled} is set; when it is on,
 * {@link io.github.mcpgateway.tracing.TracingConfiguration} names the server span after
 * the MCP request and decides how far a caller's sampling flag is followed.
 */
@NullMarked
package io.github.mcpgateway.tracing;

import org.jspecify.annotations.NullMarked;
