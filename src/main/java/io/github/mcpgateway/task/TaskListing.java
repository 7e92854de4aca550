package io.github.mcpgateway.task;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.transport.ListResultFilter;
import io.github.mcpgateway.transport.MessageFilter;

/**
 * A {@code tasks/list} as one caller on one server may send and see it: the cursor it
 * sends must be one the gateway sealed for it ({@link TaskCursor}), and the upstream
 * receives its own cursor back in {@code params.cursor}; a result shows the caller's
 * tasks only, with the upstream's {@code nextCursor} sealed. The same filter reads a
 * {@code tasks/list} result replayed on a resumed stream.
 */
final class TaskListing {

	private final TaskStore store;

	private final StrictJsonReader reader;

	private final JsonMapper jsonMapper;

	private final Clock clock;

	private final Duration cursorLifetime;

	private final RequestRewrite rewrite;

	TaskListing(TaskStore store, StrictJsonReader reader, JsonMapper jsonMapper, Clock clock, Duration cursorLifetime) {
		this.store = store;
		this.reader = reader;
		this.jsonMapper = jsonMapper;
		this.clock = clock;
		this.cursorLifetime = cursorLifetime;
		this.rewrite = new RequestRewrite(jsonMapper);
	}

	/**
	 * {@code request} as the upstream should see it: unchanged without a cursor, else
	 * with the upstream's cursor the caller's opens to; {@code null} when the caller's
	 * cursor was not sealed for it on {@code server} (or is not a string).
	 * @throws TaskStoreException if the store cannot give the cursor secret
	 */
	@Nullable HttpServletRequest forwarded(HttpServletRequest request, JsonRpcMessage message, String server,
			McpPrincipal principal) throws IOException {
		JsonNode params = message.params();
		JsonNode given = (params != null && params.isObject()) ? params.get("cursor") : null;
		if (given == null || given.isNull()) {
			return request;
		}
		String upstream = given.isString() ? cursor(server, principal).open(given.stringValue()) : null;
		if (upstream == null) {
			return null;
		}
		return this.rewrite.rewrite(request, (root) -> ((ObjectNode) root.get("params")).put("cursor", upstream));
	}

	/**
	 * A {@code tasks/list} result as the caller of {@code context} (a verified principal)
	 * may see it: its own tasks, the upstream's cursor sealed for it. Throws
	 * {@link TaskStoreException} when the store cannot answer.
	 */
	MessageFilter results(McpRequestContext context) {
		String server = context.server().identityKey();
		McpPrincipal principal = java.util.Objects.requireNonNull(context.principal());
		TaskCursor cursor = cursor(server, principal);
		return new ListResultFilter(this.reader, this.jsonMapper, "tasks", "taskId",
				(ids) -> this.store.owned(server, principal, ids))
			.withCursors(cursor::seal);
	}

	private TaskCursor cursor(String server, McpPrincipal principal) {
		return new TaskCursor(this.store::cursorSecret, this.clock, this.cursorLifetime, server, principal);
	}

}
