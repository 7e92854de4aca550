package io.github.mcpgateway.idempotency;

/**
 * The store could not answer (for example Redis is down or too slow). A keyed request
 * whose {@code begin} fails this way is refused with 503 {@code idempotency_unavailable}:
 * it never runs without deduplication. Carries no key and no payload.
 */
public class IdempotencyStoreException extends RuntimeException {

	public IdempotencyStoreException(String message, Throwable cause) {
		super(message, cause);
	}

}
