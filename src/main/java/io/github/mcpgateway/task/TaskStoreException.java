package io.github.mcpgateway.task;

import org.jspecify.annotations.Nullable;

/**
 * The task store cannot answer (Redis unreachable): the request fails closed with 503
 * {@code task_store_unavailable} and nothing goes upstream. Carries no task id.
 */
public final class TaskStoreException extends RuntimeException {

	public TaskStoreException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
