package io.github.mcpgateway.idempotency;

import java.util.Locale;

import io.github.mcpgateway.request.AuditTag;

/**
 * How the Idempotency-Key stage handled a keyed request: the bounded value set of the
 * {@code idempotency} audit field and of the {@code outcome} tag of
 * {@code mcp_gateway_idempotency_total}.
 */
public enum IdempotencyOutcome implements AuditTag {

	/** First execution of a new key. */
	FIRST,
	/** Answered with the stored reply of an earlier execution. */
	REPLAY,
	/** Same key, different request. */
	CONFLICT,
	/** The first request with this key is still running. */
	IN_FLIGHT,
	/** The first request's outcome is unknown; not run again. */
	UNKNOWN_OUTCOME,
	/** The first request ran; its reply cannot be replayed. */
	NOT_REPLAYABLE,
	/** Quota or cap reached. */
	CAPACITY,
	/**
	 * The shared store lost data and does not hold the key: refused until the fence ends
	 * (ADR 0025).
	 */
	FENCED,
	/**
	 * A {@code notifications/cancelled} ended a keyed call in flight: recorded on the
	 * notification; the call's key is left an outcome-unknown tombstone.
	 */
	CANCELLED,
	/**
	 * The key was refused: invalid, unsupported request, no verified identity, or
	 * unavailable.
	 */
	REJECTED;

	@Override
	public String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}
