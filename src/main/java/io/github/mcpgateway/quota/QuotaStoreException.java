package io.github.mcpgateway.quota;

/**
 * The quota store could not be asked (Redis down or too slow); the message names the
 * store and the failure's class, never a key.
 */
final class QuotaStoreException extends RuntimeException {

	QuotaStoreException(String message, Throwable cause) {
		super(message, cause);
	}

}
