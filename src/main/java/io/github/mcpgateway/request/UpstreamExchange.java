package io.github.mcpgateway.request;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.transport.UpstreamCall;

/**
 * What the upstream guard and the proxy record on the {@link McpRequestContext} about the
 * upstream exchange of a request, for what runs after it: the Idempotency-Key settlement
 * tells "never executed" from "maybe executed" by {@link #dispatched()}, a cancellation
 * aborts the {@link #call()}, the audit line shows whether it was dispatched. Written on
 * the request's thread but for {@link #call()}, which another thread may read.
 */
public final class UpstreamExchange {

	private boolean dispatched;

	private boolean replyCutShort;

	private volatile @Nullable UpstreamCall call;

	UpstreamExchange() {
	}

	/** Whether the request was handed to the upstream ("maybe executed"). */
	public boolean dispatched() {
		return this.dispatched;
	}

	public void dispatched(boolean dispatched) {
		this.dispatched = dispatched;
	}

	/** Whether the client left and the reply was therefore not read to its end. */
	public boolean replyCutShort() {
		return this.replyCutShort;
	}

	public void replyCutShort(boolean replyCutShort) {
		this.replyCutShort = replyCutShort;
	}

	/** The upstream call once sent, or {@code null}; another thread may abort it. */
	public @Nullable UpstreamCall call() {
		return this.call;
	}

	public void call(UpstreamCall call) {
		this.call = call;
	}

}
