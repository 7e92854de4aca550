package io.github.mcpgateway.virtual;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.transport.MessageFilter;

/**
 * What of a member's reply is the member's own and must be told apart from the other
 * members' before the client sees it: the id of a request the member sends the client
 * (sampling, elicitation, {@code roots/list}), and every task id (a created task, a task
 * result, a task list, a status notification, related-task metadata). Each is given the
 * member's prefix ({@link Namespaced}), so that the client's answer, or its
 * {@code tasks/*} request, names the member it goes back to; and so is every event id of
 * a stream ({@link #eventId}). On a {@code subscriptions/listen} stream ({@code listen})
 * the member's acknowledgement is dropped: the virtual server acknowledges once.
 * Everything else passes byte for byte: a message is rewritten only when it holds one of
 * these. A list-changed notification also drops the member's lists kept for its callers
 * ({@link MemberLists#notified}).
 */
record MemberMessages(Member member, JsonMapper json, MemberLists lists, boolean listen) implements MessageFilter {

	/** The filter of any relayed reply but a {@code subscriptions/listen} stream's. */
	MemberMessages(Member member, JsonMapper json, MemberLists lists) {
		this(member, json, lists, false);
	}

	private static final String RELATED_TASK = "io.modelcontextprotocol/related-task";

	private static final String ACKNOWLEDGED = "notifications/subscriptions/acknowledged";

	@Override
	public Verdict filter(byte[] message) {
		JsonNode node;
		try {
			node = this.json.readTree(message);
		}
		catch (JacksonException ex) {
			return Verdict.PASS;
		}
		if (!(node instanceof ObjectNode object)) {
			return Verdict.PASS;
		}
		JsonNode method = object.path("method");
		if (this.listen && method.isString() && ACKNOWLEDGED.equals(method.asString())) {
			// The virtual server acknowledged the client's subscription once, itself.
			return Verdict.DROP;
		}
		if (object.path("method").isString() && !object.has("id")) {
			// A list-changed notification: the member's lists kept for its callers are
			// stale.
			this.lists.notified(this.member.server(), object.get("method").asString());
		}
		boolean changed = false;
		if (object.hasNonNull("method") && object.hasNonNull("id")) {
			object.put("id", Namespaced.requestId(this.member, object.get("id")));
			changed = true;
		}
		changed |= prefixTaskIds(object.get("params"));
		JsonNode result = object.get("result");
		changed |= prefixTaskIds(result);
		if (result != null) {
			changed |= prefixTaskId(result.get("task"));
			for (JsonNode task : result.path("tasks")) {
				changed |= prefixTaskId(task);
			}
		}
		return changed ? Verdict.rewrite(this.json.writeValueAsBytes(object)) : Verdict.PASS;
	}

	/**
	 * An event id of the member's stream, under its prefix: a client that resumes with it
	 * ({@code Last-Event-ID}) names the member that resumes ({@link VirtualStreams}).
	 */
	@Override
	public String eventId(String id) {
		return this.member.expose(id);
	}

	/** The task id of {@code holder} and of its related-task metadata, prefixed. */
	private boolean prefixTaskIds(@Nullable JsonNode holder) {
		if (holder == null) {
			return false;
		}
		return prefixTaskId(holder) | prefixTaskId(holder.path("_meta").get(RELATED_TASK));
	}

	private boolean prefixTaskId(@Nullable JsonNode holder) {
		if (holder instanceof ObjectNode object && object.path("taskId").isString()) {
			object.put("taskId", this.member.expose(object.get("taskId").asString()));
			return true;
		}
		return false;
	}

}
