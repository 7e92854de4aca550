package io.github.mcpgateway.proxy;

import java.time.Duration;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;

import io.github.mcpgateway.policy.McpServerPolicy;

/**
 * One circuit breaker and one bulkhead per MCP server (named {@code namespace/name}),
 * created on first use from {@link ProxyProperties}. The bulkhead never queues: a call
 * over the limit is refused at once, because a queued tool call only adds latency the
 * client cannot see.
 */
public final class UpstreamResilience {

	private final CircuitBreakerRegistry circuitBreakers;

	private final BulkheadRegistry bulkheads;

	private final Duration openWait;

	public UpstreamResilience(ProxyProperties properties) {
		ProxyProperties.CircuitBreaker breaker = properties.circuitBreaker();
		this.openWait = breaker.waitDurationInOpenState();
		this.circuitBreakers = CircuitBreakerRegistry.of(CircuitBreakerConfig.custom()
			.failureRateThreshold(breaker.failureRateThreshold())
			.slidingWindowSize(breaker.slidingWindowSize())
			.minimumNumberOfCalls(breaker.minimumNumberOfCalls())
			.waitDurationInOpenState(breaker.waitDurationInOpenState())
			.permittedNumberOfCallsInHalfOpenState(breaker.permittedCallsInHalfOpenState())
			.automaticTransitionFromOpenToHalfOpenEnabled(false)
			.build());
		this.bulkheads = BulkheadRegistry.of(BulkheadConfig.custom()
			.maxConcurrentCalls(properties.bulkhead().maxConcurrentCalls())
			.maxWaitDuration(Duration.ZERO)
			.build());
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

}
