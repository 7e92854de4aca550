/**
 * Quotas: the {@code limits} of a server in the policy file, checked after the grants and
 * before the Idempotency-Key, as token buckets in a store every replica shares.
 */
@NullMarked
package io.github.mcpgateway.quota;

import org.jspecify.annotations.NullMarked;
