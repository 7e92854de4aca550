/** The bounded, in-process {@link io.github.mcpgateway.idempotency.IdempotencyStore}. */
@NullMarked
package io.github.mcpgateway.idempotency.memory;

import org.jspecify.annotations.NullMarked;
