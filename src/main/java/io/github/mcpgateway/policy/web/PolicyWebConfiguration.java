package io.github.mcpgateway.policy.web;

import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.PolicyProperties;
import io.github.mcpgateway.policy.condition.CallerConditionTime;
import io.github.mcpgateway.request.Refusals;

/**
 * Wires the grant stage; its place in the pipeline is set by the pipeline configuration.
 */
@Configuration(proxyBeanMethods = false)
class PolicyWebConfiguration {

	@Bean
	PolicyStage policyStage(GrantEvaluator grants, Refusals refusals, JsonMapper jsonMapper,
			PolicyProperties properties, MeterRegistry meterRegistry, GatewayClock clock) {
		return new PolicyStage(grants, refusals, jsonMapper, properties, new ConditionErrors(meterRegistry),
				new CallerConditionTime(properties.conditions().callerTimePerSecond(),
						properties.conditions().callerBurst(), clock, meterRegistry));
	}

}
