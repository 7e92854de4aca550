package io.github.mcpgateway.tracing;

import java.util.Set;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import io.github.mcpgateway.config.AutoConfigurationGate;

/**
 * Keeps Spring Boot's tracing and OpenTelemetry SDK auto-configurations out of the
 * context unless {@code gateway.tracing.enabled} is {@code true}.
 *
 * <p>
 * Why a filter and not a property of Boot's: with the OpenTelemetry starter on the class
 * path, Boot always builds an SDK tracer provider with a batch span processor (its own
 * thread) and registers tracing handlers on every observation; its properties switch only
 * propagation and export off. The gateway's default must cost nothing and start no
 * thread, so the tracing auto-configurations are not imported at all; with tracing on,
 * they are imported unchanged and configured by Boot's own {@code management.tracing.*}
 * and {@code management.opentelemetry.*} properties. Registered in
 * {@code META-INF/spring.factories}.
 */
public final class TracingGate extends AutoConfigurationGate {

	/** The switch, {@code false} by default. */
	public static final String ENABLED = "gateway.tracing.enabled";

	/** Imported only with tracing on. */
	static final Set<String> TRACING_AUTO_CONFIGURATIONS = Set.of(
			"org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration",
			"org.springframework.boot.micrometer.tracing.autoconfigure.prometheus.PrometheusExemplarsAutoConfiguration",
			"org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration",
			"org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.otlp.OtlpTracingAutoConfiguration",
			"org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.zipkin.ZipkinWithOpenTelemetryTracingAutoConfiguration",
			"org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration",
			"org.springframework.boot.opentelemetry.autoconfigure.logging.OpenTelemetryLoggingAutoConfiguration",
			"org.springframework.boot.opentelemetry.autoconfigure.logging.otlp.OtlpLoggingAutoConfiguration");

	public TracingGate() {
		super(TRACING_AUTO_CONFIGURATIONS);
	}

	/** Whether {@code environment} turns tracing on. */
	public static boolean enabled(Environment environment) {
		return Binder.get(environment).bind(ENABLED, Boolean.class).orElse(false);
	}

	@Override
	protected boolean isOpen(Environment environment) {
		return enabled(environment);
	}

}
