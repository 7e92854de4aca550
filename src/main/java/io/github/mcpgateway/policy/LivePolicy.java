package io.github.mcpgateway.policy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

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

	private final List<Consumer<Policy>> listeners = new CopyOnWriteArrayList<>();

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

	/**
	 * Calls {@code listener} with each policy published after this, on the thread that
	 * published it, once every request reads it. A listener must be quick and must not
	 * throw.
	 */
	public void onPublish(Consumer<Policy> listener) {
		this.listeners.add(listener);
	}

	void publish(Policy policy, PolicyReloadStatus status) {
		this.current = policy;
		this.lastReload = status;
		this.listeners.forEach((listener) -> listener.accept(policy));
	}

	void reportFailure(PolicyReloadStatus status) {
		this.lastReload = status;
	}

}
