package io.github.mcpgateway.task;

import java.time.Duration;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;

/**
 * Where the two MCP task shapes put what the gateway binds and checks.
 * <ul>
 * <li>2025-11-25 ({@code basic/utilities/tasks}): a {@code tools/call} asks for a task
 * with {@code params.task}; the answer nests it, {@code result.task.taskId} with
 * {@code ttl} in milliseconds ({@code null}: unlimited); messages about a task carry
 * {@code _meta["io.modelcontextprotocol/related-task"].taskId};
 * {@code notifications/tasks/status} names it in {@code params.taskId}.</li>
 * <li>2026-07-28, extension {@code io.modelcontextprotocol/tasks} (SEP-2663): a client
 * that declares the extension in {@code params._meta["io.modelcontextprotocol/
 * clientCapabilities"].extensions} may get {@code result.resultType: "task"} with
 * {@code result.taskId} and {@code ttlMs}; {@code notifications/tasks} names the task in
 * {@code params.taskId}; {@code subscriptions/listen} names tasks in
 * {@code params.notifications.taskIds}.</li>
 * </ul>
 * Task requests of both name their task in {@code params.taskId}.
 */
final class TaskMessages {

	static final String RELATED_TASK = "io.modelcontextprotocol/related-task";

	static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

	static final String EXTENSION = "io.modelcontextprotocol/tasks";

	static final String LISTEN = "subscriptions/listen";

	static final String LIST = "tasks/list";

	/** The requests about one task, named by {@code params.taskId}. */
	static final Set<String> TASK_REQUESTS = Set.of("tasks/get", "tasks/result", "tasks/update", "tasks/cancel");

	private static final Set<String> STATUS_NOTIFICATIONS = Set.of("notifications/tasks/status", "notifications/tasks");

	private TaskMessages() {
	}

	/**
	 * Whether a {@code tools/call} may be answered with a task: it asks for one
	 * (2025-11-25) or declares the extension (2026-07-28). A server answers no other call
	 * with a task.
	 */
	static boolean mayCreateTask(JsonRpcMessage message) {
		JsonNode params = message.params();
		if (params == null || !params.isObject()) {
			return false;
		}
		if (params.path("task").isObject()) {
			return true;
		}
		return params.path("_meta").path(CLIENT_CAPABILITIES).path("extensions").path(EXTENSION).isObject();
	}

	/** {@code params.taskId} when it is a string, else {@code null}. */
	static @Nullable String taskIdOf(@Nullable JsonNode params) {
		JsonNode taskId = (params != null) ? params.get("taskId") : null;
		return (taskId != null && taskId.isString()) ? taskId.stringValue() : null;
	}

	/**
	 * The task a response creates, in either shape; {@code null} when it creates none.
	 */
	static @Nullable CreatedTask createdBy(JsonNode response) {
		JsonNode result = response.get("result");
		if (result == null || !result.isObject()) {
			return null;
		}
		JsonNode task = result.get("task");
		if (task != null && task.isObject() && task.path("taskId").isString()) {
			return new CreatedTask(task.get("taskId").stringValue(), millis(task.get("ttl")));
		}
		if ("task".equals(result.path("resultType").asString(null)) && result.path("taskId").isString()) {
			return new CreatedTask(result.get("taskId").stringValue(), millis(result.get("ttlMs")));
		}
		return null;
	}

	/**
	 * The task a message from the server is about: a status notification's task, else the
	 * related task its params or result name; {@code null} for none.
	 */
	static @Nullable String concerns(JsonNode message) {
		JsonNode params = message.get("params");
		JsonNode method = message.get("method");
		if (method != null && method.isString() && STATUS_NOTIFICATIONS.contains(method.stringValue())) {
			String taskId = taskIdOf(params);
			// A status notification that names no task cannot be shown to be the
			// caller's.
			return (taskId != null) ? taskId : "";
		}
		String related = relatedTask(params);
		return (related != null) ? related : relatedTask(message.get("result"));
	}

	private static @Nullable String relatedTask(@Nullable JsonNode holder) {
		if (holder == null || !holder.isObject()) {
			return null;
		}
		JsonNode related = holder.path("_meta").path(RELATED_TASK);
		if (related.isMissingNode()) {
			return null;
		}
		JsonNode taskId = related.get("taskId");
		return (taskId != null && taskId.isString()) ? taskId.stringValue() : "";
	}

	/** A ttl in milliseconds; {@code null} when absent, {@code null} or not a number. */
	private static @Nullable Duration millis(@Nullable JsonNode ttl) {
		if (ttl == null || !ttl.isNumber() || ttl.asDouble() < 0) {
			return null;
		}
		return Duration.ofMillis((long) Math.min(ttl.asDouble(), Long.MAX_VALUE));
	}

	/**
	 * A task a response created.
	 *
	 * @param taskId the upstream's id of the task
	 * @param ttl how long the upstream keeps it from its creation; {@code null} when
	 * unlimited or not said
	 */
	record CreatedTask(String taskId, @Nullable Duration ttl) {
	}

}
