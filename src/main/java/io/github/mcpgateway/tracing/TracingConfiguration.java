package io.github.mcpgateway.tracing;

import io.micrometer.tracing.Tracer;
import io.opentelemetry.sdk.trace.samplers.Sampler;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.micrometer.tracing.autoconfigure.TracingProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.server.observation.ServerRequestObservationConvention;

import io.github.mcpgateway.request.CurrentTrace;

/**
 * Tracing's beans, present only with {@code gateway.tracing.enabled: true} (the rest of
 * the wiring is Spring Boot's, imported by {@link TracingGate} then).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(GatewayTracingProperties.class)
class TracingConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty(TracingGate.ENABLED)
	static class Enabled {

		/**
		 * Spring Boot's sampler ({@code parentBased(traceIdRatioBased(probability))}),
		 * or, with {@code incoming-sampling: ignore}, the same ratio for remote parents
		 * too: a caller's flag joins the trace but does not decide whether it is
		 * recorded.
		 */
		@Bean
		Sampler otelSampler(TracingProperties tracing, GatewayTracingProperties properties) {
			Sampler ratio = Sampler.traceIdRatioBased(tracing.getSampling().getProbability());
			if (properties.incomingSampling() == GatewayTracingProperties.IncomingSampling.RESPECT) {
				return Sampler.parentBased(ratio);
			}
			return Sampler.parentBasedBuilder(ratio)
				.setRemoteParentSampled(ratio)
				.setRemoteParentNotSampled(ratio)
				.build();
		}

		/** The request's trace and span ids for its audit line. */
		@Bean
		CurrentTrace currentTrace(Tracer tracer) {
			return new TracerCurrentTrace(tracer);
		}

		/** The server span named after the MCP request; the metric keeps its tags. */
		@Bean
		ServerRequestObservationConvention mcpServerRequestConvention(Environment environment) {
			return new McpServerRequestConvention(environment
				.getProperty("management.observations.http.server.requests.name", "http.server.requests"));
		}

	}

}
