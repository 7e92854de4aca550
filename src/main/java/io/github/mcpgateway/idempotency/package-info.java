/**
 * The opt-in Idempotency-Key contract for governed {@code tools/call} requests (see
 * {@code docs/idempotency.md} and {@code docs/adr/0005-idempotency-key.md}): key
 * validation, scoped hashing, the
 * {@link io.github.mcpgateway.idempotency.IdempotencyStore} contract and the filter that
 * applies it after identity, sessions and grants.
 */
@NullMarked
package io.github.mcpgateway.idempotency;

import org.jspecify.annotations.NullMarked;
