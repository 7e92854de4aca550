package io.github.mcpgateway.session;

import java.util.Locale;

import io.github.mcpgateway.request.RefusalReason;

/**
 * Why the session stage refused a request, as the refusal's reason (the audit line's
 * {@code reason}): a revoked principal, a session store that cannot answer, or the kind
 * of {@code session_not_found}.
 */
enum SessionRefusal implements RefusalReason {

	/** The principal is revoked ({@code principal_revoked}). */
	PRINCIPAL_REVOKED,
	/** The session store could not answer ({@code session_store_unavailable}). */
	SESSION_STORE_UNAVAILABLE,
	/** The session was revoked. */
	REJECTED_REVOKED,
	/** The session is unknown (never bound, ended, dropped or expired). */
	REJECTED_UNKNOWN,
	/** The session is bound on another server. */
	REJECTED_SERVER,
	/** The session is bound to another principal. */
	REJECTED_PRINCIPAL;

	/** The refusal of a session the check rejected as {@code rejection}. */
	static SessionRefusal of(SessionEvent.Type rejection) {
		return valueOf(rejection.name());
	}

	@Override
	public String auditText() {
		return name().toLowerCase(Locale.ROOT);
	}

}
