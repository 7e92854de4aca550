package io.github.mcpgateway.task;

import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.jsonrpc.MalformedJsonException;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import io.github.mcpgateway.task.TaskMessages.CreatedTask;
import io.github.mcpgateway.transport.MessageFilter;

/**
 * What of a reply reaches a caller, task by task: applied to every message of the reply
 * to a request the task stage handles (a task request, a call that may create a task, a
 * {@code subscriptions/listen} or a GET stream).
 * <ul>
 * <li>The response to the request: a creation is bound ({@code creations}) before the
 * message is written, so the client never holds a task id the gateway has not bound; a
 * {@code tasks/list} result is filtered to the caller's tasks ({@code response}).</li>
 * <li>A {@code tasks/list} result that answers another request (a resumed stream
 * replaying the answer to an earlier {@code tasks/list}) is filtered as the answer is
 * ({@code lists}): the caller's tasks only, the cursor sealed.</li>
 * <li>Every other message that is about a task (a status notification, a server request
 * or notification with related-task metadata) passes only if the task is the caller's: an
 * upstream whose task store all callers share never shows one caller another's task, nor
 * sends it another's elicitation.</li>
 * <li>A message that cannot be read exactly is dropped; where the response must be read
 * (a creation to bind, a list to filter), it and the rest are withheld.</li>
 * </ul>
 */
final class TaskReplyFilter implements MessageFilter {

	private final StrictJsonReader reader;

	private final @Nullable JsonNode requestId;

	private final TaskOwnership ownership;

	private final @Nullable Consumer<CreatedTask> creations;

	private final @Nullable MessageFilter response;

	private final MessageFilter lists;

	private TaskReplyFilter(StrictJsonReader reader, @Nullable JsonNode requestId, TaskOwnership ownership,
			@Nullable Consumer<CreatedTask> creations, @Nullable MessageFilter response, MessageFilter lists) {
		this.reader = reader;
		this.requestId = requestId;
		this.ownership = ownership;
		this.creations = creations;
		this.response = response;
		this.lists = lists;
	}

	/**
	 * Only messages about tasks are checked, and {@code tasks/list} results pass
	 * {@code lists}.
	 */
	static TaskReplyFilter notifications(StrictJsonReader reader, @Nullable JsonNode requestId, TaskOwnership ownership,
			MessageFilter lists) {
		return new TaskReplyFilter(reader, requestId, ownership, null, null, lists);
	}

	/** The response's task, if it creates one, is handed to {@code creations}. */
	static TaskReplyFilter creations(StrictJsonReader reader, JsonNode requestId, TaskOwnership ownership,
			MessageFilter lists, Consumer<CreatedTask> creations) {
		return new TaskReplyFilter(reader, requestId, ownership, creations, null, lists);
	}

	/** The response passes {@code lists} too ({@code tasks/list}). */
	static TaskReplyFilter listing(StrictJsonReader reader, JsonNode requestId, TaskOwnership ownership,
			MessageFilter lists) {
		return new TaskReplyFilter(reader, requestId, ownership, null, lists, lists);
	}

	@Override
	public Verdict filter(byte[] bytes) {
		boolean mustRead = this.creations != null || this.response != null;
		JsonNode message;
		try {
			message = this.reader.read(bytes);
		}
		catch (MalformedJsonException ex) {
			return mustRead ? Verdict.WITHHOLD : Verdict.DROP;
		}
		if (!message.isObject()) {
			return mustRead ? Verdict.WITHHOLD : Verdict.DROP;
		}
		if (answersTheRequest(message)) {
			return answer(message, bytes);
		}
		if (isTaskList(message)) {
			return otherList(bytes);
		}
		String taskId = TaskMessages.concerns(message);
		return (taskId == null || this.ownership.owns(taskId)) ? Verdict.PASS : Verdict.DROP;
	}

	/**
	 * The response to the request: a task it creates is bound before it passes; a list
	 * passes {@code response}, and is withheld when the task store cannot be read.
	 */
	private Verdict answer(JsonNode message, byte[] bytes) {
		if (this.creations != null) {
			CreatedTask created = TaskMessages.createdBy(message);
			if (created != null) {
				this.creations.accept(created);
				this.ownership.bound(created.taskId());
			}
			return Verdict.PASS;
		}
		if (this.response != null) {
			try {
				return this.response.filter(bytes);
			}
			catch (TaskStoreException ex) {
				return Verdict.WITHHOLD;
			}
		}
		return Verdict.PASS;
	}

	/**
	 * A {@code tasks/list} result that answers another request: filtered by
	 * {@code lists}, and dropped where the answer would be withheld.
	 */
	private Verdict otherList(byte[] bytes) {
		try {
			MessageFilter.Verdict verdict = this.lists.filter(bytes);
			// Not the answer the client waits for: one it cannot have is left out.
			return (verdict.kind() == MessageFilter.Kind.WITHHOLD) ? Verdict.DROP : verdict;
		}
		catch (TaskStoreException ex) {
			return Verdict.DROP;
		}
	}

	/** A response whose {@code result.tasks} is an array: a {@code tasks/list} answer. */
	private static boolean isTaskList(JsonNode message) {
		JsonNode result = message.get("result");
		return !message.has("method") && result != null && result.path("tasks").isArray();
	}

	private boolean answersTheRequest(JsonNode message) {
		if (this.requestId == null || message.has("method") || !(message.has("result") || message.has("error"))) {
			return false;
		}
		JsonNode id = message.get("id");
		if (id == null) {
			return false;
		}
		if (id.isNumber() && this.requestId.isNumber()) {
			return id.decimalValue().compareTo(this.requestId.decimalValue()) == 0;
		}
		return id.equals(this.requestId);
	}

}
