package io.github.mcpgateway.request;

/**
 * A stage's outcome as the audit line and the meters name it: one value of a bounded set,
 * each stage's own enum ({@code IdempotencyOutcome}, {@code TaskOutcome}, ...).
 */
public interface AuditTag {

	/** The lower-case name used in audit lines and metric tags. */
	String tag();

}
