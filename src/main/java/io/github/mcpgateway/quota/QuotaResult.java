package io.github.mcpgateway.quota;

import java.time.Duration;

/**
 * What a store answered for the buckets of one request: every bucket gave a token, or
 * none did because {@link #refusedBy()} had none.
 *
 * @param refusedBy the index of the first bucket without a token, or {@code -1} when
 * every one gave one
 * @param retryAfter when every refusing bucket will have a token again ({@code ZERO} when
 * allowed)
 * @param remaining the tokens each bucket holds after this request (before it, when
 * refused)
 */
record QuotaResult(int refusedBy, Duration retryAfter, long[] remaining) {

	boolean allowed() {
		return this.refusedBy < 0;
	}

}
