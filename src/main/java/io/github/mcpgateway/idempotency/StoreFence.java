package io.github.mcpgateway.idempotency;

import java.time.Instant;

/**
 * A shared store's fence after it lost data (ADR 0025): until {@code until}, a keyed call
 * whose key the store does not hold is refused, since it may be the retry of a call the
 * store forgot.
 *
 * @param since when a replica found the loss
 * @param until when the fence ends: the longest time a forgotten key could still come
 * back
 * @param cause what was found: {@code emptied} (the store had no epoch any more),
 * {@code replaced} (another replica had found it emptied) or {@code writes_lost} (keys a
 * replica began were gone: a failover lost its latest writes) or {@code evicted} (Redis
 * evicted keys under a policy that may evict the store's)
 */
public record StoreFence(Instant since, Instant until, String cause) {

	/** Whether the fence holds at {@code now}. */
	public boolean holdsAt(Instant now) {
		return now.isBefore(this.until);
	}

}
