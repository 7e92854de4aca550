package io.github.mcpgateway.jsonrpc;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One JSON-RPC 2.0 message sent by an MCP client, parsed once by
 * {@link JsonRpcMessageParser}.
 *
 * @param kind whether the message is a request, a notification or a response to a server
 * request
 * @param id the request id exactly as sent (type-aware: {@code 1} and {@code "1"}
 * differ), never null for a request; {@code null} for notifications
 * @param method the JSON-RPC method; {@code null} only for responses
 * @param params the params member, {@code null} when absent
 * @param toolName {@code params.name} of a {@code tools/call} request, else {@code null}
 */
public record JsonRpcMessage(Kind kind, @Nullable JsonNode id, @Nullable String method, @Nullable JsonNode params,
		@Nullable String toolName) {

	public static final String TOOLS_CALL = "tools/call";

	public static final String TOOLS_LIST = "tools/list";

	public static final String INITIALIZE = "initialize";

	/** The prefix of every notification method of MCP, in either direction. */
	public static final String NOTIFICATIONS_PREFIX = "notifications/";

	public boolean isToolCall() {
		return this.kind == Kind.REQUEST && TOOLS_CALL.equals(this.method);
	}

	public boolean isToolList() {
		return this.kind == Kind.REQUEST && TOOLS_LIST.equals(this.method);
	}

	/**
	 * Whether {@code method} is a notification method ({@code notifications/...}): the
	 * only methods a message without an id may name.
	 */
	public static boolean isNotificationMethod(String method) {
		return method.startsWith(NOTIFICATIONS_PREFIX);
	}

	/** What a client-sent JSON-RPC message is. */
	public enum Kind {

		/** Has a method and an id: the server answers it. */
		REQUEST,
		/**
		 * Has a {@code notifications/} method and no id (or a null one): the server
		 * answers 202 with no body.
		 */
		NOTIFICATION,
		/** Has an id and a result or error: the client's answer to a server request. */
		RESPONSE

	}

}
