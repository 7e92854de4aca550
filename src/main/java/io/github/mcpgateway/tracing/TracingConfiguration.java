package io.github.mcpgateway.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.micrometer.tracing.autoconfigure.TracingProperties;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.http.server.observation.ServerRequestObservationConvention;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.request.PipelineObserver;
import io.github.mcpgateway.request.RequestProperties;
import io.github.mcpgateway.routing.ServerLocator;

/**
 * Tracing's beans, present only with {@code gateway.tracing.enabled: true} (the rest of
 * the wiring is Spring Boot's, imported by {@link TracingGate} then): the pipeline's
 * {@link PipelineObserver} ({@link TracingObserver}), two servlet filters of their own
 * (orders below, kept by {@code TracingIntegrationTest}), the sampler, the server span's
 * convention and the exporters' failure log. Without them the pipeline observes nothing
 * ({@link PipelineObserver#NONE}) and the proxy adds nothing to the upstream call.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(GatewayTracingProperties.class)
class TracingConfiguration {

	/** Ahead of Spring's server observation ({@code HIGHEST_PRECEDENCE + 1}). */
	static final int META_CONTEXT_ORDER = Ordered.HIGHEST_PRECEDENCE;

	/** Just ahead of Spring Security. */
	static final int IDENTITY_SPAN_ORDER = SecurityFilterProperties.DEFAULT_FILTER_ORDER - 1;

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

		/** The identity span, handed from its filter to the pipeline's observer. */
		@Bean
		IdentitySpans identitySpans(OpenTelemetry openTelemetry) {
			return new IdentitySpans(McpSpans.tracer(openTelemetry));
		}

		/**
		 * The pipeline's observer: the stage spans, the upstream call's client span, the
		 * trace ids of the audit line.
		 */
		@Bean
		PipelineObserver tracingObserver(OpenTelemetry openTelemetry, IdentitySpans identitySpans,
				ObjectProvider<TextMapPropagator> propagators, GatewayTracingProperties properties) {
			return new TracingObserver(McpSpans.tracer(openTelemetry), identitySpans,
					propagators.getIfAvailable(() -> openTelemetry.getPropagators().getTextMapPropagator()),
					properties.metaContext() == GatewayTracingProperties.MetaContext.PROPAGATE);
		}

		/** The identity span, opened around Spring Security. */
		@Bean
		FilterRegistrationBean<IdentitySpanFilter> identitySpanFilter(IdentitySpans identitySpans,
				ServerLocator servers) {
			FilterRegistrationBean<IdentitySpanFilter> registration = new FilterRegistrationBean<>(
					new IdentitySpanFilter(identitySpans, servers));
			registration.setOrder(IDENTITY_SPAN_ORDER);
			return registration;
		}

		/**
		 * Trace context from {@code params._meta}, read ahead of Spring's server
		 * observation; not with {@code gateway.tracing.meta-context: ignore}.
		 */
		@Bean
		@ConditionalOnProperty(name = "gateway.tracing.meta-context", havingValue = "propagate", matchIfMissing = true)
		FilterRegistrationBean<MetaTraceContextFilter> metaTraceContextFilter(ServerLocator servers,
				RequestProperties request) {
			FilterRegistrationBean<MetaTraceContextFilter> registration = new FilterRegistrationBean<>(
					new MetaTraceContextFilter(servers, request.maxBodySize().toBytes()));
			registration.setOrder(META_CONTEXT_ORDER);
			return registration;
		}

		/**
		 * Every span and log-record exporter (Boot's OTLP ones) wrapped so that a failing
		 * collector costs one rate-limited warning ({@link ExportFailureLog}).
		 */
		@Bean
		static BeanPostProcessor exportFailureLog(ObjectProvider<GatewayClock> clock) {
			return new BeanPostProcessor() {

				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					if (bean instanceof WatchedExporter) {
						return bean;
					}
					if (bean instanceof SpanExporter exporter) {
						return WatchedExporter.watch(SpanExporter.class, exporter, new ExportFailureLog("Span export",
								"span(s)", clock.getIfAvailable(GatewayClock::system)));
					}
					if (bean instanceof LogRecordExporter exporter) {
						return WatchedExporter.watch(LogRecordExporter.class, exporter, new ExportFailureLog(
								"Log record export", "log record(s)", clock.getIfAvailable(GatewayClock::system)));
					}
					return bean;
				}

			};
		}

		/** The server span named after the MCP request; the metric keeps its tags. */
		@Bean
		ServerRequestObservationConvention mcpServerRequestConvention(Environment environment) {
			return new McpServerRequestConvention(environment
				.getProperty("management.observations.http.server.requests.name", "http.server.requests"));
		}

	}

}
