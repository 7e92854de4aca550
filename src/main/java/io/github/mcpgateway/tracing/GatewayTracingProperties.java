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
 * @param metaContext {@code propagate} (the default): a request whose HTTP headers carry
 * no {@code traceparent} joins the trace of its {@code params._meta.traceparent}, and a
 * request that carries one in {@code _meta} reaches the upstream with the gateway's
 * client span in it (in place, the rest of the body byte for byte); {@code ignore}: trace
 * context is read from and written to the HTTP headers only, the body is never read
 * before identity nor changed
 */
@Validated
@ConfigurationProperties(prefix = "gateway.tracing", ignoreUnknownFields = false)
public record GatewayTracingProperties(@DefaultValue("false") boolean enabled,
		@DefaultValue("ignore") @NotNull IncomingSampling incomingSampling,
		@DefaultValue("propagate") @NotNull MetaContext metaContext) {

	/** Whether trace context in {@code params._meta} is read and written. */
	public enum MetaContext {

		/** Read when the headers have none; written back when the message had it. */
		PROPAGATE,
		/** HTTP headers only. */
		IGNORE

	}

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
