package io.github.mcpgateway.tracing;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code gateway.tracing.*}: whether the gateway traces, and how far it follows a
 * caller's sampling decision. Where spans go and how many are kept are Spring Boot's own
 * properties ({@code management.opentelemetry.tracing.export.otlp.*},
 * {@code management.tracing.sampling.probability}).
 *
 * @param enabled whether tracing runs at all; {@code false} (the default) imports no
 * tracing auto-configuration ({@link TracingGate})
 * @param incomingSampling {@code ignore} (the default): the caller's trace id and parent
 * are kept, but whether a trace is recorded is the gateway's own ratio, so an untrusted
 * caller cannot make the gateway record (and export) every request by sending a sampled
 * flag; {@code respect}: a sampled or unsampled parent is followed, for callers that are
 * part of the same tracing deployment
 */
@Validated
@ConfigurationProperties(prefix = "gateway.tracing", ignoreUnknownFields = false)
public record GatewayTracingProperties(@DefaultValue("false") boolean enabled,
		@DefaultValue("ignore") @NotNull IncomingSampling incomingSampling) {

	/** What a caller's sampled flag decides. */
	public enum IncomingSampling {

		/**
		 * The gateway's ratio decides for every request; the caller's trace is joined.
		 */
		IGNORE,
		/**
		 * A remote parent's sampled flag decides (OpenTelemetry's parent-based default).
		 */
		RESPECT

	}

}
