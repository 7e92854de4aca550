package io.github.mcpgateway.task;

import java.time.Duration;
import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.idempotency.IdempotencyStage;
import io.github.mcpgateway.request.AuditContribution;
import io.github.mcpgateway.request.ContextSlot;
import io.github.mcpgateway.request.McpRequestContext;

/**
 * How the task stage handled a request, in its {@link #SLOT}, which only this package
 * writes: the audit line's {@code task} and {@code task_id_hash} fields, the tool of a
 * task request, and the {@code outcome} of {@value TaskMeters#OUTCOMES}.
 *
 * @param outcome {@code created}, {@code allowed}, {@code not_found}, ...
 * @param taskIdHash the first 16 hex characters of the task id's hash, never the id (an
 * upstream may treat task ids as bearer tokens)
 * @param tool the tool the request's task was created by, {@code null} for other requests
 * or an unknown task
 */
public record TaskHandling(TaskOutcome outcome, @Nullable String taskIdHash,
		@Nullable String tool) implements AuditContribution {

	/** The task stage's outcome of the request, absent when it did not handle it. */
	public static final ContextSlot<TaskHandling> SLOT = ContextSlot.declare("task");

	private static final ContextSlot.Writer<TaskHandling> writer = SLOT.writer();

	private static final ContextSlot.Writer<Duration> lifetimeWriter = IdempotencyStage.KEEP_AT_LEAST.writer();

	/** Where its fields go in the audit line: after the upstream credential's. */
	static final int POSITION = 300;

	/** Records how the stage handled the request of {@code context}. */
	static void record(McpRequestContext context, TaskOutcome outcome, @Nullable String taskIdHash,
			@Nullable String tool) {
		writer.put(context, new TaskHandling(outcome, taskIdHash, tool));
	}

	/**
	 * Records that the {@code tools/call} of {@code context} created a task that lives up
	 * to {@code lifetime}: its Idempotency-Key entry, if any, is kept as long.
	 */
	static void created(McpRequestContext context, Duration lifetime) {
		lifetimeWriter.put(context, lifetime);
	}

	@Override
	public int position() {
		return POSITION;
	}

	@Override
	public void writeFields(BiConsumer<String, @Nullable String> field) {
		field.accept("task", this.outcome.tag());
		field.accept("task_id_hash", this.taskIdHash);
	}

	@Override
	public void countOutcome(BiConsumer<String, String> counter) {
		counter.accept(TaskMeters.OUTCOMES, this.outcome.tag());
	}

}
