package io.github.mcpgateway.proxy;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import io.github.mcpgateway.guard.UpstreamGuardSettings;

/**
 * How the gateway talks to upstream MCP servers ({@code gateway.proxy.*}). There is
 * deliberately no whole-response timeout: a long tool call or an idle event stream is
 * bounded by the first-byte and idle timeouts instead. The circuit breaker, bulkhead and
 * stream probe settings are the upstream guard's ({@link UpstreamGuardSettings}), set
 * here with the rest of the upstream call.
 *
 * @param connectTimeout time to open a TCP (and TLS) connection; past it 502
 * {@code upstream_unavailable}
 * @param firstByteTimeout time from sending the request until the response headers
 * arrive; past it 504 {@code upstream_timeout}
 * @param idleTimeout longest silence between two reads of a response body (event streams
 * included); past it the stream is cut
 * @param streamProbeInterval a stateless (2026-07-28) event stream whose upstream has
 * been silent this long gets an SSE comment, so that a client that left is noticed and
 * the upstream exchange ended (closing the stream cancels the request in that revision);
 * {@code 0} turns it off
 * @param silentReplyStreamAfter a stateless (2026-07-28) request whose client accepts an
 * event stream and whose upstream has sent nothing for this long is answered as an event
 * stream kept alive with SSE comments, its reply as the stream's one event, so that a
 * client that leaves is noticed (needs probes on); {@code 0} turns it off
 * @param maxConnections pooled connections to all upstreams together
 * @param maxConnectionsPerUpstream pooled connections to one upstream host
 * @param circuitBreaker per-server circuit breaker
 * @param bulkhead per-server limit of concurrent upstream calls
 */
@Validated
@ConfigurationProperties(prefix = "gateway.proxy", ignoreUnknownFields = false)
public record ProxyProperties(@DefaultValue("5s") @NotNull Duration connectTimeout,
		@DefaultValue("60s") @NotNull Duration firstByteTimeout, @DefaultValue("5m") @NotNull Duration idleTimeout,
		@DefaultValue("1s") @NotNull Duration streamProbeInterval,
		@DefaultValue("1s") @NotNull Duration silentReplyStreamAfter, @DefaultValue("500") @Min(1) int maxConnections,
		@DefaultValue("200") @Min(1) int maxConnectionsPerUpstream, @Valid @DefaultValue CircuitBreaker circuitBreaker,
		@Valid @DefaultValue Bulkhead bulkhead) implements UpstreamGuardSettings {

	public ProxyProperties {
		requireNotNegative(streamProbeInterval, "stream-probe-interval");
		requireNotNegative(silentReplyStreamAfter, "silent-reply-stream-after");
	}

	private static void requireNotNegative(Duration duration, String name) {
		if (duration != null && duration.isNegative()) {
			throw new IllegalArgumentException("gateway.proxy." + name + " must not be negative");
		}
	}

	/**
	 * Opens a server's circuit when too many recent calls failed (connect errors,
	 * timeouts, broken replies and 5xx statuses count as failures; 4xx do not).
	 *
	 * @param failureRateThreshold failure percentage that opens the circuit
	 * @param slidingWindowSize number of recent calls the rate is computed over
	 * @param minimumNumberOfCalls calls needed before the rate is trusted
	 * @param waitDurationInOpenState how long the circuit stays open; also the
	 * {@code Retry-After}
	 * @param permittedCallsInHalfOpenState trial calls let through after the wait
	 */
	public record CircuitBreaker(@DefaultValue("50") @Min(1) @Max(100) float failureRateThreshold,
			@DefaultValue("20") @Min(1) int slidingWindowSize, @DefaultValue("10") @Min(1) int minimumNumberOfCalls,
			@DefaultValue("30s") @NotNull Duration waitDurationInOpenState,
			@DefaultValue("3") @Min(1) int permittedCallsInHalfOpenState)
			implements
				UpstreamGuardSettings.CircuitSettings {
	}

	/**
	 * @param maxConcurrentCalls concurrent POSTs in flight to one server; one more is
	 * refused at once with 503 {@code upstream_overloaded}. Server-to-client GET streams
	 * are not counted.
	 */
	public record Bulkhead(
			@DefaultValue("64") @Min(1) int maxConcurrentCalls) implements UpstreamGuardSettings.BulkheadSettings {
	}

}
