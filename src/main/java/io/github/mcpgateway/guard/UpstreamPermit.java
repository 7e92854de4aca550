package io.github.mcpgateway.guard;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.jspecify.annotations.Nullable;

/**
 * One call's admission to its upstream: the circuit breaker's permission and, for a call
 * in flight, a bulkhead place, acquired together ({@link UpstreamResilience#admit}) and
 * given back together, exactly once, by the one method that says how the call ended. The
 * circuit classifies a completed exchange by its status (a 5xx counts as a failure, the
 * breaker's {@code recordResult} predicate), a broken one by its exception.
 */
final class UpstreamPermit {

	private final CircuitBreaker circuit;

	private final @Nullable Bulkhead bulkhead;

	private final long start;

	private boolean ended;

	UpstreamPermit(CircuitBreaker circuit, @Nullable Bulkhead bulkhead) {
		this.circuit = circuit;
		this.bulkhead = bulkhead;
		this.start = circuit.getCurrentTimestamp();
	}

	/** The upstream answered with {@code status}: a result for the circuit. */
	void answered(int status) {
		if (end()) {
			this.circuit.onResult(elapsed(), this.circuit.getTimestampUnit(), status);
		}
	}

	/** The exchange failed in a way that counts against the upstream. */
	void failed(Throwable failure) {
		if (end()) {
			this.circuit.onError(elapsed(), this.circuit.getTimestampUnit(), failure);
		}
	}

	/**
	 * The exchange ended in a way that says nothing bad of the upstream: a long-lived
	 * stream that ended after it started.
	 */
	void succeeded() {
		if (end()) {
			this.circuit.onSuccess(elapsed(), this.circuit.getTimestampUnit());
		}
	}

	/**
	 * Nothing can be said of the upstream: the call never reached it, or the client left.
	 */
	void released() {
		if (end()) {
			this.circuit.releasePermission();
		}
	}

	private boolean end() {
		if (this.ended) {
			return false;
		}
		this.ended = true;
		if (this.bulkhead != null) {
			this.bulkhead.onComplete();
		}
		return true;
	}

	private long elapsed() {
		return this.circuit.getCurrentTimestamp() - this.start;
	}

}
