package io.github.mcpgateway.virtual;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.Grant;

/**
 * A list method a virtual server answers by merging its members' lists: the array each
 * result holds, the member of an item that names it, the grant kind that decides whether
 * a caller sees it, and whether that name is the member's own (a resource's URI, kept as
 * the member wrote it) or exposed under the member's prefix.
 *
 * @param method the JSON-RPC method, sent to each member as it came
 * @param array the result's array of items
 * @param key the item's member that names it
 * @param kind what grants and a member's selection decide it as; {@code null}: not theirs
 * to decide (a task, which the member's task binding already limits to the caller's own)
 * @param prefixed whether the name is exposed under the member's prefix
 * @param capability the server capability a member declares when it serves the list
 */
record Listing(String method, String array, String key, Grant.@Nullable Item kind, boolean prefixed,
		String capability) {

	static final Listing TOOLS = new Listing("tools/list", "tools", "name", Grant.Item.TOOL, true, "tools");

	static final Listing PROMPTS = new Listing("prompts/list", "prompts", "name", Grant.Item.PROMPT, true, "prompts");

	static final Listing RESOURCES = new Listing("resources/list", "resources", "uri", Grant.Item.RESOURCE, false,
			"resources");

	static final Listing TEMPLATES = new Listing("resources/templates/list", "resourceTemplates", "uriTemplate",
			Grant.Item.RESOURCE, false, "resources");

	static final Listing TASKS = new Listing("tasks/list", "tasks", "taskId", null, true, "tasks");

	/** The listing answered for {@code method}, or {@code null}: not a list method. */
	static @Nullable Listing of(@Nullable String method) {
		for (Listing listing : new Listing[] { TOOLS, PROMPTS, RESOURCES, TEMPLATES, TASKS }) {
			if (listing.method.equals(method)) {
				return listing;
			}
		}
		return null;
	}

}
