package io.github.mcpgateway.task;

import io.github.mcpgateway.request.McpRequestContext;

/**
 * Records a task outcome on a request context as the task stage would, for tests of what
 * reads it.
 */
public final class TestTaskHandlings {

	private TestTaskHandlings() {
	}

	public static void record(McpRequestContext context, TaskOutcome outcome, String taskIdHash, String tool) {
		TaskHandling.record(context, outcome, taskIdHash, tool);
	}

}
