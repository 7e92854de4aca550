package io.github.mcpgateway.task;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * Which tasks are the caller's, as one reply's filter asks message by message: each task
 * id is looked up once per reply. Fails closed: a task the store cannot vouch for (it
 * cannot answer) is not the caller's. Not thread-safe: one reply is relayed on one
 * thread.
 */
final class TaskOwnership {

	private final TaskStore store;

	private final String server;

	private final McpPrincipal principal;

	private final Map<String, Boolean> known = new HashMap<>();

	TaskOwnership(TaskStore store, String server, McpPrincipal principal) {
		this.store = store;
		this.server = server;
		this.principal = principal;
	}

	boolean owns(String taskId) {
		return this.known.computeIfAbsent(taskId, (id) -> {
			try {
				return !this.store.owned(this.server, this.principal, List.of(id)).isEmpty();
			}
			catch (TaskStoreException ex) {
				return false;
			}
		});
	}

	/** Records a task this reply bound to the caller. */
	void bound(String taskId) {
		this.known.put(taskId, true);
	}

}
