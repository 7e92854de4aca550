/**
 * Quotas: the {@code limits} of a server in the policy file, applied by
 * {@code QuotaStage} after the grants (a refused request consumes nothing) and before the
 * Idempotency-Key stage, as token buckets ({@code QuotaPlan} chooses which) in a
 * {@code QuotaStore}: this replica's own ({@code MemoryQuotaStore}, the default) or one
 * every replica shares ({@code RedisQuotaStore}, one Lua script on Redis {@code TIME}). A
 * keyed {@code tools/call} is charged through the pipeline's deferred charge, only once
 * it is known to run. {@code QuotaInspector} shows {@code explain} the same plan without
 * taking a token.
 */
@NullMarked
package io.github.mcpgateway.quota;

import org.jspecify.annotations.NullMarked;
