package io.github.mcpgateway.error;

import org.springframework.util.Assert;

/**
 * Which gateway errors may be answered with HTTP 200 ({@link RefusalStatus#JSON_RPC}),
 * and whether they are.
 * <ul>
 * <li><b>Decisions</b> about a request the gateway understood and refuses: the
 * {@link GatewayError.Category#FORBIDDEN} family (grants, revocation, upstream token
 * refused), {@code task_not_found} and a policy limit's {@code rate_limited}.
 * {@code gateway.request.refusal-status}, by default {@code json-rpc}.</li>
 * <li><b>The Idempotency-Key contract's</b> refusals ({@code idempotency_*}), whose HTTP
 * statuses the contract names: {@code gateway.idempotency.refusal-status}, by default
 * {@code http}; always 200 for a key sent in {@code _meta} (ADR 0020).</li>
 * </ul>
 * Everything else keeps its status whatever the settings, because the status is what the
 * transport acts on: 401 starts the client's authorization, 404 on a session makes it
 * initialize again, 400/405/413/415 refuse what is not a valid request, the gateway's own
 * 429 and 503 say when to come back. A refusal of a notification (no id) keeps its status
 * too: there is no response to carry the error.
 *
 * @param decisions how decisions are answered
 * @param idempotency how the Idempotency-Key's refusals are answered
 */
public record RefusalStatuses(RefusalStatus decisions, RefusalStatus idempotency) {

	/** Every error with its own status. */
	public static final RefusalStatuses HTTP = new RefusalStatuses(RefusalStatus.HTTP, RefusalStatus.HTTP);

	public RefusalStatuses {
		Assert.notNull(decisions, "decisions must not be null");
		Assert.notNull(idempotency, "idempotency must not be null");
	}

	/**
	 * Whether {@code error}, refusing a request with an id, is answered with 200.
	 * @param keyInMessage whether the request's Idempotency-Key came in its
	 * {@code _meta}: its caller reads every refusal of the key as a JSON-RPC error,
	 * whatever the setting (ADR 0020)
	 */
	boolean asJsonRpc(GatewayError error, boolean keyInMessage) {
		if (error.code().startsWith("idempotency_")) {
			return keyInMessage || this.idempotency == RefusalStatus.JSON_RPC;
		}
		return isDecision(error) && this.decisions == RefusalStatus.JSON_RPC;
	}

	/**
	 * A decision about what the request asks: the grants' refusals, an unknown task or
	 * tool, a method a virtual server does not serve, and a policy limit's
	 * {@code rate_limited} (ADR 0020: a quota is the policy's answer to this call, and
	 * its {@code Retry-After} reaches the application only in the message).
	 */
	private static boolean isDecision(GatewayError error) {
		return error.category() == GatewayError.Category.FORBIDDEN
				|| error.category() == GatewayError.Category.INVALID_PARAMS
				|| error.category() == GatewayError.Category.METHOD_NOT_FOUND
				|| GatewayErrors.RATE_LIMITED.code().equals(error.code());
	}

}
