package io.github.mcpgateway.explain;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.LivePolicy;
import io.github.mcpgateway.quota.QuotaInspector;
import io.github.mcpgateway.request.RequestProperties;
import io.github.mcpgateway.revocation.RevocationSync;

/** Wires the decision-explain endpoint to the request path's evaluator and state. */
@Configuration(proxyBeanMethods = false)
class ExplainConfiguration {

	@Bean
	DecisionExplainer decisionExplainer(LivePolicy livePolicy, GrantEvaluator grantEvaluator,
			RevocationSync revocationSync, GatewayErrorRenderer errors, QuotaInspector quotas) {
		return new DecisionExplainer(livePolicy, grantEvaluator, revocationSync, errors, quotas);
	}

	@Bean
	VirtualServerExplainer virtualServerExplainer(LivePolicy livePolicy, DecisionExplainer decisionExplainer,
			GrantEvaluator grantEvaluator, GatewayErrorRenderer errors, QuotaInspector quotas) {
		return new VirtualServerExplainer(livePolicy, decisionExplainer, grantEvaluator, errors, quotas);
	}

	@Bean
	ExplainEndpoint explainEndpoint(DecisionExplainer decisionExplainer, VirtualServerExplainer virtualServerExplainer,
			RequestProperties requestProperties) {
		return new ExplainEndpoint(decisionExplainer, virtualServerExplainer, requestProperties.json());
	}

}
