package io.github.mcpgateway.guard;

import java.time.Duration;

/**
 * What the upstream guard is configured with. The proxy's properties supply it
 * ({@code gateway.proxy.circuit-breaker.*}, {@code gateway.proxy.bulkhead.*},
 * {@code gateway.proxy.stream-probe-interval},
 * {@code gateway.proxy.silent-reply-stream-after}), where operators set every setting of
 * the upstream call; the guard owns the contract, so that it depends on no later stage.
 */
public interface UpstreamGuardSettings {

	/**
	 * How long a stateless event stream's upstream may be silent before a probe;
	 * {@code 0} turns probes off.
	 */
	Duration streamProbeInterval();

	/**
	 * How long a stateless request's reply may be silent before it is opened as an event
	 * stream ({@code transport.SilentReply}); {@code 0} never opens one.
	 */
	Duration silentReplyStreamAfter();

	/** The per-server circuit breaker. */
	CircuitSettings circuitBreaker();

	/** The per-server bulkhead. */
	BulkheadSettings bulkhead();

	/** A server's circuit breaker: when it opens, for how long, how it closes again. */
	interface CircuitSettings {

		/** Failure percentage that opens the circuit. */
		float failureRateThreshold();

		/** Number of recent calls the rate is computed over. */
		int slidingWindowSize();

		/** Calls needed before the rate is trusted. */
		int minimumNumberOfCalls();

		/** How long the circuit stays open; also the {@code Retry-After}. */
		Duration waitDurationInOpenState();

		/** Trial calls let through after the wait. */
		int permittedCallsInHalfOpenState();

	}

	/** A server's bulkhead. */
	interface BulkheadSettings {

		/** Concurrent calls in flight to one server. */
		int maxConcurrentCalls();

	}

}
