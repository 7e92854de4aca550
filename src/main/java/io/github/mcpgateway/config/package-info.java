/**
 * Application-wide wiring: the pipeline ({@code PipelineConfiguration}: the orders of the
 * gateway's four servlet filters, the order of the stages, the shared clock and error
 * renderer) and the Redis client the Redis stores share
 * ({@code RedisClientConfiguration}), and the gates that keep Spring Boot's
 * auto-configurations out of a context that does not use them
 * ({@code AutoConfigurationGate}, {@code RedisGate}, {@code UnusedAutoConfigurations}).
 * The two filters tracing adds are ordered by {@code tracing.TracingConfiguration}.
 */
@NullMarked
package io.github.mcpgateway.config;

import org.jspecify.annotations.NullMarked;
