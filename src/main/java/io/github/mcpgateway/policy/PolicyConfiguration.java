package io.github.mcpgateway.policy;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.poll.PeriodicTask;

/**
 * Wires the live policy: parser, start-up load and reload schedule, health and the grant
 * evaluator. The grant stage that applies it is wired in
 * {@code io.github.mcpgateway.grant}, below this model.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PolicyProperties.class)
class PolicyConfiguration {

	@Bean
	LivePolicy livePolicy() {
		return new LivePolicy();
	}

	@Bean
	PolicyReloader policyReloader(PolicyProperties properties, LivePolicy livePolicy, GatewayClock clock,
			MeterRegistry meterRegistry, ObjectProvider<ServerPolicyCheck> checks) {
		return new PolicyReloader(properties, new PolicyParser(checks.orderedStream().toList()), livePolicy, clock,
				meterRegistry);
	}

	@Bean
	PeriodicTask policyReloadSchedule(PolicyReloader reloader, PolicyProperties properties) {
		return new PeriodicTask("policy-reloader", properties.reloadInterval(), properties.reloadInterval(),
				reloader::reloadNow);
	}

	@Bean
	PolicyEndpoint policyEndpoint(LivePolicy livePolicy) {
		return new PolicyEndpoint(livePolicy);
	}

	@Bean
	PolicyHealthIndicator policyHealthIndicator(LivePolicy livePolicy) {
		return new PolicyHealthIndicator(livePolicy);
	}

	@Bean
	GrantEvaluator grantEvaluator(PolicyProperties properties, GatewayClock clock) {
		return new GrantEvaluator(properties.conditions().limits(), clock);
	}

}
