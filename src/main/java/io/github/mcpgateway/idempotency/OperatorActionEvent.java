package io.github.mcpgateway.idempotency;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * An operator changed gateway state through an operator endpoint. Audited like a request:
 * who, what, on which hash; never a raw key.
 *
 * @param time when it happened
 * @param operator the verified human who did it
 * @param action what was done, for example {@code idempotency_tombstone_cleared}
 * @param idempotencyKeyHash the key hash acted on, or {@code null}
 * @param succeeded whether the action changed anything
 */
public record OperatorActionEvent(Instant time, String operator, String action, @Nullable String idempotencyKeyHash,
		boolean succeeded) {
}
