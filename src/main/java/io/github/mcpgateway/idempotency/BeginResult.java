package io.github.mcpgateway.idempotency;

/** What {@link IdempotencyStore#begin} decided for a keyed request. */
public sealed interface BeginResult {

	/**
	 * The key is new: the caller runs the request and must then complete, tombstone or
	 * release it.
	 */
	record Started() implements BeginResult {
	}

	/** The same request completed before: answer with its reply, do not run it. */
	record Replay(StoredReply reply) implements BeginResult {
	}

	/** Refused; {@link Refusal} says why. */
	record Refused(Refusal refusal) implements BeginResult {
	}

	/** Why a keyed request is not run. */
	enum Refusal {

		/** Same key, different request hash. */
		CONFLICT,
		/** The first request with this key is still running. */
		IN_FLIGHT,
		/** The first request's outcome is unknown (tombstone). */
		OUTCOME_UNKNOWN,
		/** The first request ran but its reply is not stored (tombstone). */
		NOT_REPLAYABLE,
		/** A quota or cap is reached and nothing can be evicted. */
		CAPACITY

	}

}
