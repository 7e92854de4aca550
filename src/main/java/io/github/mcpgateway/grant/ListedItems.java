package io.github.mcpgateway.grant;

import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.Grant;

/**
 * The governed items a list request's reply shows, other than tools (whose filter the
 * grant stage has always run): {@code prompts/list} ({@code result.prompts[].name}),
 * {@code resources/list} ({@code result.resources[].uri}) and
 * {@code resources/templates/list} ({@code result.resourceTemplates[].uriTemplate},
 * matched as written).
 *
 * @param kind the items' kind
 * @param member the result's array member
 * @param key the item member that names it
 */
record ListedItems(Grant.Item kind, String member, String key) {

	static final ListedItems PROMPTS = new ListedItems(Grant.Item.PROMPT, "prompts", "name");

	static final ListedItems RESOURCES = new ListedItems(Grant.Item.RESOURCE, "resources", "uri");

	static final ListedItems RESOURCE_TEMPLATES = new ListedItems(Grant.Item.RESOURCE, "resourceTemplates",
			"uriTemplate");

	/** Every kind but tools, in the order a resumed stream's filters are stacked. */
	static final List<ListedItems> OTHERS = List.of(PROMPTS, RESOURCES, RESOURCE_TEMPLATES);

	/** What {@code message}'s reply lists, or {@code null} for any other request. */
	static @Nullable ListedItems of(@Nullable JsonRpcMessage message) {
		if (message == null || message.kind() != JsonRpcMessage.Kind.REQUEST || message.method() == null) {
			return null;
		}
		return switch (message.method()) {
			case "prompts/list" -> PROMPTS;
			case "resources/list" -> RESOURCES;
			case "resources/templates/list" -> RESOURCE_TEMPLATES;
			default -> null;
		};
	}

}
