package io.github.mcpgateway.session;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A change to the session binding table, published for the audit log and the meters.
 * Carries the session id (which the request audit also shows) but never a token.
 *
 * @param time when it happened
 * @param type what happened
 * @param sessionId the session id
 * @param serverKey the server ({@code namespace/name})
 * @param human the human the session is bound to, or {@code null}
 */
public record SessionEvent(Instant time, Type type, String sessionId, String serverKey, @Nullable String human) {

	/**
	 * Session events, as audited ({@code session_event}) and counted ({@code event} tag).
	 */
	public enum Type {

		/**
		 * A session was created through {@code initialize} and bound to its principal.
		 */
		BOUND,
		/** The client ended the session with {@code DELETE}. */
		ENDED,
		/**
		 * The upstream answered 404 on the session: it no longer knows it (restarted,
		 * expired it, or never had it).
		 */
		UPSTREAM_NOT_FOUND,
		/** The session was revoked at the revocation source. */
		REVOKED,
		/** Dropped to keep the table within its bound, or idle past the timeout. */
		DROPPED,
		/**
		 * Dropped because its human bound more than
		 * {@code gateway.session.max-per-principal} sessions: the human's least recently
		 * used one goes.
		 */
		DROPPED_PRINCIPAL_CAP,
		/** Refused: the gateway does not know the session id. */
		REJECTED_UNKNOWN,
		/** Refused: the session is revoked. */
		REJECTED_REVOKED,
		/** Refused: the session belongs to another principal. */
		REJECTED_PRINCIPAL,
		/** Refused: the session belongs to another server. */
		REJECTED_SERVER

	}

}
