package io.github.mcpgateway.request;

import org.jspecify.annotations.Nullable;

/**
 * A charge an earlier stage leaves on the {@link McpRequestContext} until the request is
 * known to run: the quota stage's charge of a keyed {@code tools/call}, whose replay does
 * not run the tool and so consumes nothing.
 */
@FunctionalInterface
public interface DeferredCharge {

	/** Charges the request; the refusal, or {@code null} when it may run. */
	StageDecision.@Nullable Refuse charge();

}
