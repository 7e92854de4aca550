package io.github.mcpgateway.session;

/**
 * The session store could not answer: the request carrying the session fails closed with
 * 503 {@code session_store_unavailable}.
 */
class SessionStoreException extends RuntimeException {

	SessionStoreException(String message, Throwable cause) {
		super(message, cause);
	}

}
