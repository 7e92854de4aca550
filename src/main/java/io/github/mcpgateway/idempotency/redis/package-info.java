/**
 * The {@link io.github.mcpgateway.idempotency.IdempotencyStore} shared by gateway
 * replicas, on Redis.
 */
@NullMarked
package io.github.mcpgateway.idempotency.redis;

import org.jspecify.annotations.NullMarked;
