package io.github.mcpgateway.task;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * Decides a request about one task ({@code tasks/get}, {@code tasks/result},
 * {@code tasks/update}, {@code tasks/cancel}) from its binding and the live policy.
 *
 * <p>
 * A task that is unknown, expired, bound to another principal or to another server
 * (another UID: a server recreated under its name does not inherit tasks), or a request
 * that names no task, gets one and the same answer, {@code task_not_found}: whether a
 * task exists is not revealed. The caller's own task is then decided as a first call of
 * its tool would be: a grant removed since is {@code tool_not_granted}. (A revoked
 * principal never gets here: the session stage refuses it.)
 */
final class TaskRequestDecider {

	private final TaskStore store;

	private final GrantEvaluator grants;

	TaskRequestDecider(TaskStore store, GrantEvaluator grants) {
		Assert.notNull(store, "store must not be null");
		Assert.notNull(grants, "grants must not be null");
		this.store = store;
		this.grants = grants;
	}

	TaskDecision decide(McpServerPolicy server, McpPrincipal principal, JsonRpcMessage message) {
		String taskId = TaskMessages.taskIdOf(message.params());
		if (taskId == null) {
			return new TaskDecision(TaskOutcome.NOT_FOUND, GatewayErrors.TASK_NOT_FOUND, null, null);
		}
		String hash = TaskKeys.audit(server.identityKey(), taskId);
		TaskBinding binding;
		try {
			binding = this.store.find(server.identityKey(), taskId);
		}
		catch (TaskStoreException ex) {
			return new TaskDecision(TaskOutcome.UNAVAILABLE, GatewayErrors.TASK_STORE_UNAVAILABLE, hash, null);
		}
		if (binding == null || !binding.ownedBy(server.identityKey(), principal)) {
			return new TaskDecision(TaskOutcome.NOT_FOUND, GatewayErrors.TASK_NOT_FOUND, hash, null);
		}
		if (!this.grants.mayCallTool(server, principal, binding.tool())) {
			return new TaskDecision(TaskOutcome.TOOL_NOT_GRANTED, GatewayErrors.TOOL_NOT_GRANTED, hash, binding.tool());
		}
		return new TaskDecision(TaskOutcome.ALLOWED, null, hash, binding.tool());
	}

	/**
	 * The decision on a task request.
	 *
	 * @param outcome for the audit line and the meter
	 * @param refusal the error to answer, {@code null} when the request goes upstream
	 * @param taskIdHash the audit hash of the task it names, if it names one
	 * @param tool the tool of the caller's task, when it is the caller's
	 */
	record TaskDecision(TaskOutcome outcome, @Nullable GatewayError refusal, @Nullable String taskIdHash,
			@Nullable String tool) {
	}

}
