package io.github.mcpgateway.request;

import java.util.Locale;

import io.github.mcpgateway.error.GatewayError;

/** The gateway's decision on a request, as audited and counted. */
public enum Decision {

	/** No stage has decided yet. */
	PENDING,
	/** Allowed and forwarded upstream, or answered by a stage (a replay). */
	ALLOWED,
	/** Refused by identity, session, revocation, policy or a task's binding. */
	DENIED,
	/** Refused as malformed or unsupported. */
	INVALID,
	/**
	 * Refused before dispatch: to protect the upstream or the gateway (circuit breaker,
	 * bulkhead, connection pool, a store that cannot answer, a per-caller bound), or by
	 * the Idempotency-Key contract (conflict, in flight, tombstone, capacity).
	 */
	REFUSED,
	/**
	 * Forwarded, but the upstream failed, timed out or sent what cannot be relayed.
	 */
	UPSTREAM_ERROR;

	/** The decision a refusal with {@code error} stands for, from its category. */
	public static Decision of(GatewayError error) {
		return switch (error.category()) {
			case UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, INVALID_PARAMS -> DENIED;
			case INVALID_REQUEST, TOO_LARGE, HEADER_MISMATCH, METHOD_NOT_FOUND -> INVALID;
			case UNAVAILABLE, IDEMPOTENCY_CONFLICT, IDEMPOTENCY_CAPACITY, CAPACITY -> REFUSED;
			case UPSTREAM_FAILED, UPSTREAM_TIMEOUT -> UPSTREAM_ERROR;
			// The gateway failed (500), or a service it depends on cannot answer (503).
			case INTERNAL -> (error.status().value() == 503) ? REFUSED : INVALID;
		};
	}

	/** The lower-case name of the audit line and the meters. */
	public String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}
