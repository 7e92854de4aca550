/**
 * The opt-in Idempotency-Key contract for governed {@code tools/call} requests (see
 * {@code docs/idempotency.md} and {@code docs/adr/0005-idempotency-key.md}): the stage
 * that applies it after identity, sessions, grants and quotas ({@code IdempotencyStage},
 * which commits a call it started so that the pipeline takes its deferred quota charge),
 * key validation, scoped hashing, what a call's outcome leaves in the store
 * ({@code KeyedCallSettlement}), the
 * {@link io.github.mcpgateway.idempotency.IdempotencyStore} contract, replays, the
 * operator endpoint and the meters.
 */
@NullMarked
package io.github.mcpgateway.idempotency;

import org.jspecify.annotations.NullMarked;
