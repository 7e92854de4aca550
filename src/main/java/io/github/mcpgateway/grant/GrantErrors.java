package io.github.mcpgateway.grant;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.policy.GrantDecision;

/**
 * The one mapping from a grant refusal to the error it is answered with, shared by the
 * grant stage, {@code /actuator/explain} and {@code validate --samples}, so that the
 * three can never disagree.
 */
public final class GrantErrors {

	private GrantErrors() {
	}

	/**
	 * The error {@code decision} is answered with; a refusal by conditions names the
	 * grant ({@code error.data.grant}), never the arguments. {@code decision} must be a
	 * refusal.
	 */
	public static GatewayError errorOf(GrantDecision decision) {
		GatewayError error = errorOf(decision.refusal());
		return (decision.deniedBy() != null) ? error.withDetail("grant", decision.deniedBy()) : error;
	}

	private static GatewayError errorOf(GrantDecision.Refusal refusal) {
		return switch (refusal) {
			case NO_GRANT_APPLIES -> GatewayErrors.SERVER_NOT_GRANTED;
			case NO_APPLYING_GRANT_LISTS_TOOL -> GatewayErrors.TOOL_NOT_GRANTED;
			case NO_APPLYING_GRANT_LISTS_PROMPT -> GatewayErrors.PROMPT_NOT_GRANTED;
			case NO_APPLYING_GRANT_LISTS_RESOURCE -> GatewayErrors.RESOURCE_NOT_GRANTED;
			case CONDITIONS_DENY_TOOL -> GatewayErrors.TOOL_ARGUMENTS_DENIED;
			case CONDITIONS_DENY_PROMPT -> GatewayErrors.PROMPT_ARGUMENTS_DENIED;
			case CONDITIONS_DENY_RESOURCE -> GatewayErrors.RESOURCE_PARAMS_DENIED;
		};
	}

}
