package io.github.mcpgateway.policy;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a policy that stops start-up into Spring Boot's "APPLICATION FAILED TO START"
 * report, naming the file, line and field instead of a bean-creation stack trace.
 */
class PolicyFailureAnalyzer extends AbstractFailureAnalyzer<PolicyException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, PolicyException cause) {
		return new FailureAnalysis("The policy file is not valid: " + cause.getMessage(),
				"Fix the policy file (format: docs/configuration.md, section 'Policy file') or point "
						+ "gateway.policy.location at a valid one. The gateway does not start without a valid policy.",
				cause);
	}

}
