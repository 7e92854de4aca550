package io.github.mcpgateway.policy;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The policy every request reads: one immutable {@link Policy} published through a
 * volatile field, so a reload swaps routes and grants atomically. Also holds the status
 * of the latest reload attempt for health and metrics. Written only by
 * {@link PolicyReloader}.
 */
public class LivePolicy {

	private volatile @Nullable Policy current;

	private volatile @Nullable PolicyReloadStatus lastReload;

	/** The live policy; throws before the first valid policy was loaded. */
	public Policy current() {
		Policy policy = this.current;
		Assert.state(policy != null, "No policy has been loaded yet");
		return policy;
	}

	public boolean isLoaded() {
		return this.current != null;
	}

	public @Nullable PolicyReloadStatus lastReload() {
		return this.lastReload;
	}

	void publish(Policy policy, PolicyReloadStatus status) {
		this.current = policy;
		this.lastReload = status;
	}

	void reportFailure(PolicyReloadStatus status) {
		this.lastReload = status;
	}

}
