package io.github.mcpgateway.policy;

import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Removes from a {@code tools/list} result the tools a principal may not call.
 *
 * <p>
 * Works on one JSON-RPC message: a response whose {@code result.tools} is an array gets
 * every entry whose {@code name} the predicate refuses (or that has no string name)
 * removed; every other member, {@code nextCursor} included, is kept. Anything else (an
 * error response, a notification, text that is not JSON) is left alone and reported as
 * unchanged.
 */
final class ToolListRewriter {

	private final JsonMapper jsonMapper;

	private final Predicate<String> mayCall;

	ToolListRewriter(JsonMapper jsonMapper, Predicate<String> mayCall) {
		this.jsonMapper = jsonMapper;
		this.mayCall = mayCall;
	}

	/** The filtered message, or {@code null} when {@code json} needs no change. */
	byte @Nullable [] rewrite(byte[] json) {
		JsonNode root;
		try {
			root = this.jsonMapper.readTree(json);
		}
		catch (JacksonException ex) {
			return null;
		}
		if (root == null || !root.isObject()) {
			return null;
		}
		JsonNode tools = root.path("result").path("tools");
		if (!tools.isArray()) {
			return null;
		}
		ArrayNode kept = this.jsonMapper.createArrayNode();
		for (JsonNode tool : tools) {
			JsonNode name = tool.get("name");
			if (name != null && name.isString() && this.mayCall.test(name.stringValue())) {
				kept.add(tool);
			}
		}
		if (kept.size() == tools.size()) {
			return null;
		}
		((ObjectNode) root.get("result")).set("tools", kept);
		return this.jsonMapper.writeValueAsBytes(root);
	}

}
