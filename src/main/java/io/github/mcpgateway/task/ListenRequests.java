package io.github.mcpgateway.task;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;

/**
 * The tasks a 2026-07-28 {@code subscriptions/listen} subscribes to
 * ({@code params.notifications.taskIds}): only the caller's reach the upstream. The
 * others are taken out of the request, as if they did not exist; the server's
 * acknowledgement lists the ids it accepted, so the client sees them refused exactly as
 * unknown ones.
 */
final class ListenRequests {

	private final JsonMapper jsonMapper;

	private final RequestRewrite rewrite;

	ListenRequests(JsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
		this.rewrite = new RequestRewrite(jsonMapper);
	}

	/** The task ids the request names, {@code null} when it names none. */
	static @Nullable List<String> taskIds(JsonRpcMessage message) {
		JsonNode params = message.params();
		JsonNode ids = (params != null) ? params.path("notifications").get("taskIds") : null;
		if (ids == null || !ids.isArray()) {
			return null;
		}
		List<String> taskIds = new ArrayList<>(ids.size());
		for (JsonNode id : ids) {
			taskIds.add(id.isString() ? id.stringValue() : "");
		}
		return taskIds;
	}

	/**
	 * {@code request} as the upstream should see it: unchanged when every id is the
	 * caller's, else with the others removed from {@code taskIds}.
	 */
	HttpServletRequest keepOnly(HttpServletRequest request, List<String> named, Set<String> owned) throws IOException {
		if (owned.containsAll(named)) {
			return request;
		}
		ArrayNode kept = this.jsonMapper.createArrayNode();
		for (String id : named) {
			if (owned.contains(id)) {
				kept.add(id);
			}
		}
		return this.rewrite.rewrite(request,
				(root) -> ((ObjectNode) root.get("params").get("notifications")).set("taskIds", kept));
	}

}
