package io.github.mcpgateway.guard;

import java.time.Clock;

import io.github.resilience4j.micrometer.tagged.TaggedBulkheadMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.request.Refusals;

/**
 * Wires the upstream guard: the circuit breakers and bulkheads with their meters, the
 * stage, the probes of stateless event streams and the open event streams that shutdown
 * ends. Its settings are the proxy's properties, seen through
 * {@link UpstreamGuardSettings}.
 */
@Configuration(proxyBeanMethods = false)
class UpstreamGuardConfiguration {

	@Bean
	UpstreamResilience upstreamResilience(UpstreamGuardSettings settings, MeterRegistry meterRegistry, Clock clock) {
		UpstreamResilience resilience = new UpstreamResilience(settings, clock);
		TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(resilience.circuitBreakers()).bindTo(meterRegistry);
		TaggedBulkheadMetrics.ofBulkheadRegistry(resilience.bulkheads()).bindTo(meterRegistry);
		return resilience;
	}

	@Bean
	UpstreamGuardStage upstreamGuardStage(UpstreamResilience resilience, Refusals refusals, MeterRegistry meterRegistry,
			OpenEventStreams openEventStreams, StreamProbes streamProbes, GatewayClock clock) {
		return new UpstreamGuardStage(resilience, refusals, meterRegistry, openEventStreams, streamProbes, clock);
	}

	@Bean
	StreamProbes streamProbes(UpstreamGuardSettings settings, GatewayClock clock) {
		return new StreamProbes(settings.streamProbeInterval(), settings.silentReplyStreamAfter(), clock);
	}

	@Bean
	OpenEventStreams openEventStreams(GatewayClock clock) {
		return new OpenEventStreams(clock);
	}

}
