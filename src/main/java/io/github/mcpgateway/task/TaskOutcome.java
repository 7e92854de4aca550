package io.github.mcpgateway.task;

import java.util.Locale;

import io.github.mcpgateway.request.AuditTag;

/**
 * How the task stage handled a request: the audit line's {@code task} field and the
 * {@code outcome} tag of {@code mcp_gateway_tasks_total}. A bounded set.
 */
public enum TaskOutcome implements AuditTag {

	/** A call that may create a task created one, and it was bound to the caller. */
	CREATED,
	/** A call that may create a task was answered without one. */
	NOT_CREATED,
	/** A call that may create a task was refused before dispatch: a cap is reached. */
	CAPACITY,
	/** The task store could not answer; refused before dispatch. */
	UNAVAILABLE,
	/** A task request on the caller's own task, allowed by the live grants. */
	ALLOWED,
	/** A task request on a task that is unknown, expired or someone else's. */
	NOT_FOUND,
	/** A task request on the caller's task whose tool the live grants no longer allow. */
	TOOL_NOT_GRANTED,
	/** A {@code tasks/list}, a {@code subscriptions/listen} or a GET stream, filtered. */
	FILTERED,
	/**
	 * A {@code tasks/list} whose cursor the gateway did not seal for this caller on this
	 * server (forged, another caller's, expired).
	 */
	CURSOR_INVALID;

	@Override
	public String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}
