package io.github.mcpgateway.session;

import org.jspecify.annotations.Nullable;

/**
 * The session store could not answer: the request carrying the session fails closed with
 * 503 {@code session_store_unavailable}. Public for the virtual sessions, which live
 * beside the bindings and fail the same way ({@code virtual.VirtualSessionStore}).
 */
public class SessionStoreException extends RuntimeException {

	public SessionStoreException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
