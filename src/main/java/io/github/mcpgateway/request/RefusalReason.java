package io.github.mcpgateway.request;

/**
 * Why a stage refused a request, where its error code alone does not say: a value of the
 * refusing capability's own type (the grant whose condition refused, the limit that was
 * reached, the kind of session refusal, the token endpoint's error), never the caller's
 * arguments or a credential. Given with the refusal
 * ({@link StageDecision#refuse(io.github.mcpgateway.error.GatewayError, RefusalReason)}),
 * recorded with it on the context and shown as the audit line's {@code reason}.
 */
public interface RefusalReason {

	/** The audit line's {@code reason}: bounded, chosen by the gateway or the policy. */
	String auditText();

}
