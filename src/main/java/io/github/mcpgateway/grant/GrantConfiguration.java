package io.github.mcpgateway.grant;

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
 * Wires the grant stage and its strategies; its place in the pipeline is set by the
 * pipeline configuration. The strategies share one {@link ToolHeaderAnnotations}: the
 * list filter learns what the header check reads.
 */
@Configuration(proxyBeanMethods = false)
class GrantConfiguration {

	@Bean
	PolicyStage policyStage(GrantEvaluator grants, Refusals refusals, JsonMapper jsonMapper,
			PolicyProperties properties, MeterRegistry meterRegistry, GatewayClock clock) {
		CallerConditionTime callerTime = new CallerConditionTime(properties.conditions().callerTimePerSecond(),
				properties.conditions().callerBurst(), clock, meterRegistry);
		GrantDecisions decisions = new GrantDecisions(grants, callerTime, new ConditionErrors(meterRegistry));
		ToolHeaderAnnotations annotations = new ToolHeaderAnnotations();
		return new PolicyStage(new RequestGrants(decisions), new SubscriptionGrants(decisions),
				new ParamHeaderCheck(annotations), new ListFilters(grants, annotations, refusals, jsonMapper,
						(int) properties.toolListMaxSize().toBytes()));
	}

}
