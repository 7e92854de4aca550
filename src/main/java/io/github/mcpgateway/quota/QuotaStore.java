package io.github.mcpgateway.quota;

import java.util.List;

/**
 * Where the token buckets live: in this replica ({@link MemoryQuotaStore}) or in Redis,
 * shared by every replica.
 *
 * <p>
 * Contract: {@link #consume} is atomic over all the buckets of one request: either each
 * gives one token or none is taken, so a request refused by one limit costs no other
 * limit anything. Time is the store's own (the replica's clock, or Redis's).
 */
interface QuotaStore {

	/** Takes one token from each bucket, or none when one of them is empty. */
	QuotaResult consume(List<QuotaBucket> buckets);

	/** The tokens each bucket holds now, taking none (for explain). */
	long[] peek(List<QuotaBucket> buckets);

}
