package io.github.mcpgateway.idempotency;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrors;

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

	/**
	 * Refused; {@link Refusal} says why, and for {@link Refusal#CAPACITY} the
	 * {@link Limit} that was reached (for the other refusals {@code null}).
	 */
	record Refused(Refusal refusal, @Nullable Limit limit, @Nullable Duration retryAfter) implements BeginResult {

		public Refused(Refusal refusal) {
			this(refusal, null, null);
		}

		/** A {@link Refusal#CAPACITY} refusal at {@code limit}. */
		public static Refused capacity(Limit limit) {
			return new Refused(Refusal.CAPACITY, limit, null);
		}

		/** A {@link Refusal#FENCED} refusal, the fence ending in {@code remaining}. */
		public static Refused fenced(Duration remaining) {
			return new Refused(Refusal.FENCED, null, remaining);
		}

		/** The error the client is answered, with its {@code Retry-After} when known. */
		public GatewayError error() {
			return (this.retryAfter != null) ? this.refusal.error().withRetryAfter(this.retryAfter)
					: this.refusal.error();
		}

	}

	/**
	 * Why a keyed request is not run: each with the stage's outcome and the error the
	 * client is answered.
	 */
	enum Refusal {

		/** Same key, different request hash. */
		CONFLICT(IdempotencyOutcome.CONFLICT, GatewayErrors.IDEMPOTENCY_KEY_CONFLICT),
		/** The first request with this key is still running. */
		IN_FLIGHT(IdempotencyOutcome.IN_FLIGHT, GatewayErrors.IDEMPOTENCY_IN_FLIGHT),
		/** The first request's outcome is unknown (tombstone). */
		OUTCOME_UNKNOWN(IdempotencyOutcome.UNKNOWN_OUTCOME, GatewayErrors.IDEMPOTENCY_OUTCOME_UNKNOWN),
		/** The first request ran but its reply is not stored (tombstone). */
		NOT_REPLAYABLE(IdempotencyOutcome.NOT_REPLAYABLE, GatewayErrors.IDEMPOTENCY_RESPONSE_NOT_REPLAYABLE),
		/** A quota or cap is reached and nothing can be evicted. */
		CAPACITY(IdempotencyOutcome.CAPACITY, GatewayErrors.IDEMPOTENCY_CAPACITY),
		/**
		 * The store lost data and does not hold this key: it may be the retry of a call
		 * it forgot (ADR 0025).
		 */
		FENCED(IdempotencyOutcome.FENCED, GatewayErrors.IDEMPOTENCY_STORE_RECOVERING),
		/**
		 * The key was begun, but fewer Redis replicas than {@code wait-for-replicas}
		 * acknowledged it in time: it was released, and the call does not run.
		 */
		UNREPLICATED(IdempotencyOutcome.REJECTED, GatewayErrors.IDEMPOTENCY_UNAVAILABLE);

		private final IdempotencyOutcome outcome;

		private final GatewayError error;

		Refusal(IdempotencyOutcome outcome, GatewayError error) {
			this.outcome = outcome;
			this.error = error;
		}

		/** The stage's outcome: the audit line's {@code idempotency}. */
		public IdempotencyOutcome outcome() {
			return this.outcome;
		}

		/** The error the refused request is answered. */
		public GatewayError error() {
			return this.error;
		}

	}

	/**
	 * The quota or cap that refused a keyed request with {@link Refusal#CAPACITY}, in the
	 * order the stores check them; {@link #tag()} is the metric tag and the name the
	 * Redis scripts answer with.
	 */
	enum Limit {

		/** {@code max-in-flight}. */
		IN_FLIGHT("in_flight"),
		/** {@code max-in-flight-per-scope}. */
		IN_FLIGHT_PER_SCOPE("in_flight_per_scope"),
		/** {@code max-in-flight-per-principal}. */
		IN_FLIGHT_PER_PRINCIPAL("in_flight_per_principal"),
		/** {@code max-in-flight-per-human}. */
		IN_FLIGHT_PER_HUMAN("in_flight_per_human"),
		/** {@code max-tombstones-per-scope}, in-flight reservations included. */
		TOMBSTONES_PER_SCOPE("tombstones_per_scope"),
		/** {@code max-tombstones-per-human}, in-flight reservations included. */
		TOMBSTONES_PER_HUMAN("tombstones_per_human"),
		/** {@code max-entries-per-scope}, nothing of the scope evictable. */
		ENTRIES_PER_SCOPE("entries_per_scope"),
		/** {@code max-entries-per-principal}, nothing of the principal evictable. */
		ENTRIES_PER_PRINCIPAL("entries_per_principal"),
		/** {@code max-entries-per-human}, nothing of the human evictable. */
		ENTRIES_PER_HUMAN("entries_per_human"),
		/** {@code max-entries}, nothing evictable. */
		ENTRIES("entries");

		private final String tag;

		Limit(String tag) {
			this.tag = tag;
		}

		public String tag() {
			return this.tag;
		}

		/** The limit a Redis script names, or {@code null} for an unknown name. */
		public static @Nullable Limit ofTag(String tag) {
			for (Limit limit : values()) {
				if (limit.tag.equals(tag)) {
					return limit;
				}
			}
			return null;
		}

	}

}
