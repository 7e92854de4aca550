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

	/** What each bucket holds now, taking nothing (for explain). */
	List<BucketLevel> peek(List<QuotaBucket> buckets);

	/**
	 * One bucket now.
	 *
	 * @param tokens the tokens it holds
	 * @param nextToken how long until it gains the next one; zero when it is full
	 */
	record BucketLevel(long tokens, java.time.Duration nextToken) {
	}

}
