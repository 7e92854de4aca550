package io.github.mcpgateway.task;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.request.CachedBodyRequest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The cursor of a {@code tasks/list} ({@code params.cursor}), and the request as the
 * upstream receives it: with the upstream's own cursor in place of the one the gateway
 * sealed for the caller ({@link TaskCursor}).
 */
final class TaskListRequests {

	private final JsonMapper jsonMapper;

	TaskListRequests(JsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
	}

	/**
	 * The cursor the request carries: {@code null} when it carries none (absent or JSON
	 * {@code null}); any other value that is not a string reads as {@code ""}, which no
	 * sealed cursor is.
	 */
	static @Nullable String cursor(JsonRpcMessage message) {
		JsonNode params = message.params();
		JsonNode cursor = (params != null && params.isObject()) ? params.get("cursor") : null;
		if (cursor == null || cursor.isNull()) {
			return null;
		}
		return cursor.isString() ? cursor.stringValue() : "";
	}

	/** {@code request} with {@code params.cursor} set to {@code cursor}. */
	HttpServletRequest withCursor(HttpServletRequest request, String cursor) throws IOException {
		ObjectNode root = (ObjectNode) this.jsonMapper.readTree(request.getInputStream().readAllBytes());
		((ObjectNode) root.get("params")).put("cursor", cursor);
		return CachedBodyRequest.replacing(request, this.jsonMapper.writeValueAsBytes(root));
	}

}
