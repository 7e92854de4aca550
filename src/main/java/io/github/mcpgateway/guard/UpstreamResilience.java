package io.github.mcpgateway.guard;

import java.time.Clock;
import java.time.Duration;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.policy.McpServerPolicy;

/**
 * One circuit breaker and one bulkhead per MCP server (named {@code namespace/name}),
 * created on first use from the {@link UpstreamGuardSettings}, on the injected clock. The
 * bulkhead never queues: a call over the limit is refused at once, because a queued tool
 * call only adds latency the client cannot see. A reply with a 5xx status is a failure of
 * the upstream ({@code recordResult}), as a broken exchange is.
 */
public final class UpstreamResilience {

	private final CircuitBreakerRegistry circuitBreakers;

	private final BulkheadRegistry bulkheads;

	private final Duration openWait;

	public UpstreamResilience(UpstreamGuardSettings settings, Clock clock) {
		UpstreamGuardSettings.CircuitSettings breaker = settings.circuitBreaker();
		this.openWait = breaker.waitDurationInOpenState();
		this.circuitBreakers = CircuitBreakerRegistry.of(CircuitBreakerConfig.custom()
			.failureRateThreshold(breaker.failureRateThreshold())
			.slidingWindowSize(breaker.slidingWindowSize())
			.minimumNumberOfCalls(breaker.minimumNumberOfCalls())
			.waitDurationInOpenState(breaker.waitDurationInOpenState())
			.permittedNumberOfCallsInHalfOpenState(breaker.permittedCallsInHalfOpenState())
			.automaticTransitionFromOpenToHalfOpenEnabled(false)
			.recordResult((result) -> result instanceof Integer status && status >= 500)
			.clock(clock)
			.build());
		this.bulkheads = BulkheadRegistry.of(BulkheadConfig.custom()
			.maxConcurrentCalls(settings.bulkhead().maxConcurrentCalls())
			.maxWaitDuration(Duration.ZERO)
			.build());
	}

	/**
	 * Admits a call to {@code server}'s upstream: the circuit's permission and, when
	 * {@code inFlight}, a bulkhead place; or says why not.
	 */
	Admission admit(McpServerPolicy server, boolean inFlight) {
		CircuitBreaker circuit = circuitBreaker(server);
		if (!circuit.tryAcquirePermission()) {
			return new Admission(null, GatewayErrors.CIRCUIT_OPEN.withRetryAfter(this.openWait));
		}
		Bulkhead bulkhead = inFlight ? bulkhead(server) : null;
		if (bulkhead != null && !bulkhead.tryAcquirePermission()) {
			circuit.releasePermission();
			return new Admission(null, GatewayErrors.BULKHEAD_FULL);
		}
		return new Admission(new UpstreamPermit(circuit, bulkhead), null);
	}

	public CircuitBreaker circuitBreaker(McpServerPolicy server) {
		return this.circuitBreakers.circuitBreaker(server.qualifiedName());
	}

	public Bulkhead bulkhead(McpServerPolicy server) {
		return this.bulkheads.bulkhead(server.qualifiedName());
	}

	/** How long an open circuit stays open: the {@code Retry-After} of a refusal. */
	public Duration openWait() {
		return this.openWait;
	}

	public CircuitBreakerRegistry circuitBreakers() {
		return this.circuitBreakers;
	}

	public BulkheadRegistry bulkheads() {
		return this.bulkheads;
	}

	/**
	 * A call's admission: a permit, or the refusal of an open circuit or a full bulkhead.
	 */
	record Admission(@Nullable UpstreamPermit permit, @Nullable GatewayError refusal) {
	}

}
