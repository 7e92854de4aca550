package io.github.mcpgateway.grant;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.Grant;

/**
 * The governed item a request names: the tool of a {@code tools/call}, the prompt of a
 * {@code prompts/get}, the resource of a {@code resources/read},
 * {@code resources/subscribe} or {@code resources/unsubscribe} ({@code params.uri}).
 *
 * @param kind what it is
 * @param name its name or URI
 */
record NamedItem(Grant.Item kind, String name) {

	/**
	 * The item {@code message} names, or {@code null} (another request, or none named).
	 */
	static @Nullable NamedItem of(@Nullable JsonRpcMessage message) {
		if (message == null || message.kind() != JsonRpcMessage.Kind.REQUEST || message.method() == null) {
			return null;
		}
		if (message.isToolCall()) {
			return new NamedItem(Grant.Item.TOOL, message.toolName());
		}
		return switch (message.method()) {
			case "prompts/get" -> named(Grant.Item.PROMPT, message.params(), "name");
			case "resources/read", "resources/subscribe", "resources/unsubscribe" ->
				named(Grant.Item.RESOURCE, message.params(), "uri");
			default -> null;
		};
	}

	/**
	 * A request of a governed kind whose {@code params} name none (or not as a string)
	 * names the empty string, which no pattern but {@code *} matches: refused where the
	 * kind is governed, as the upstream would refuse it anyway.
	 */
	private static NamedItem named(Grant.Item kind, @Nullable JsonNode params, String member) {
		JsonNode value = (params != null) ? params.get(member) : null;
		return new NamedItem(kind, (value != null && value.isString()) ? value.stringValue() : "");
	}

}
