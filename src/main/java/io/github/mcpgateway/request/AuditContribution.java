package io.github.mcpgateway.request;

import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;

/**
 * What one capability adds to the audit line and the request meters of a request it
 * handled: its typed outcome, recorded in its {@link ContextSlot}, writes its own fields.
 * The pipeline collects every slot value that is a contribution into the
 * {@link McpAuditEvent}; the audit log writes their fields after the core fields, in the
 * order of {@link #position()}; the request meters count their {@link #countOutcome}.
 * Never a token, a key, an argument or a result.
 */
public interface AuditContribution {

	/**
	 * Where the fields go among the contributions' (lower first): fixed per capability,
	 * so that every audit line has one field order.
	 */
	int position();

	/**
	 * Writes this capability's audit fields, each a name and a value ({@code null} shown
	 * as JSON {@code null}).
	 */
	void writeFields(BiConsumer<String, @Nullable String> field);

	/**
	 * The tool the request concerns when its message names none (a task request: the tool
	 * that created the task), or {@code null}.
	 */
	default @Nullable String tool() {
		return null;
	}

	/**
	 * Counts the outcome on the capability's outcome counter: {@code counter} takes the
	 * meter name and the {@code outcome} tag (the request meters add {@code namespace}
	 * and {@code server}). By default nothing is counted.
	 */
	default void countOutcome(BiConsumer<String, String> counter) {
	}

}
