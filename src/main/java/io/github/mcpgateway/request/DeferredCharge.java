package io.github.mcpgateway.request;

import org.jspecify.annotations.Nullable;

/**
 * A charge a stage leaves until the request is known to run
 * ({@link StageDecision#deferCharge}): the quota stage's charge of a keyed
 * {@code tools/call}, whose replay does not run the tool and so consumes nothing. The
 * pipeline runs it at most once: when a later stage commits the request
 * ({@link StageDecision#commit}), or else when every stage let the request through; never
 * for a request a stage refused or answered.
 */
@FunctionalInterface
public interface DeferredCharge {

	/** Charges the request; the refusal, or {@code null} when it may run. */
	StageDecision.@Nullable Refuse charge();

}
