package io.github.mcpgateway.policy.web;

import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.jsonrpc.MalformedJsonException;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Removes from a {@code tools/list} result the tools a principal may not call.
 *
 * <p>
 * Works on one JSON-RPC message, read by the {@link StrictJsonReader}: a response whose
 * {@code result.tools} is an array gets every entry whose {@code name} the predicate
 * refuses (or that has no string name) removed; every other member, {@code nextCursor}
 * included, is kept. Another JSON-RPC object (an error response, a notification) passes
 * unchanged. Anything the gateway cannot read exactly as a client would (text that is not
 * one JSON object: truncated, followed by more content, an array at the top level, a
 * repeated member name a client might read instead) is {@linkplain Result#unfilterable()
 * unfilterable}: the gateway withholds what it cannot filter, so that no byte of a tool
 * the caller may not call reaches it.
 */
final class ToolListRewriter {

	private final StrictJsonReader reader;

	private final JsonMapper jsonMapper;

	private final Predicate<String> mayCall;

	ToolListRewriter(StrictJsonReader reader, JsonMapper jsonMapper, Predicate<String> mayCall) {
		this.reader = reader;
		this.jsonMapper = jsonMapper;
		this.mayCall = mayCall;
	}

	Result rewrite(byte[] json) {
		JsonNode root;
		try {
			root = this.reader.read(json);
		}
		catch (MalformedJsonException ex) {
			return Result.UNFILTERABLE;
		}
		if (!root.isObject()) {
			return Result.UNFILTERABLE;
		}
		JsonNode result = root.get("result");
		JsonNode tools = (result != null) ? result.get("tools") : null;
		if (tools == null) {
			return Result.UNCHANGED;
		}
		if (!result.isObject() || !tools.isArray()) {
			return Result.UNFILTERABLE;
		}
		ArrayNode kept = this.jsonMapper.createArrayNode();
		for (JsonNode tool : tools) {
			JsonNode name = tool.get("name");
			if (name != null && name.isString() && this.mayCall.test(name.stringValue())) {
				kept.add(tool);
			}
		}
		if (kept.size() == tools.size()) {
			return Result.UNCHANGED;
		}
		((ObjectNode) result).set("tools", kept);
		return new Result(this.jsonMapper.writeValueAsBytes(root), false);
	}

	/**
	 * What became of a message.
	 *
	 * @param rewritten the filtered message; {@code null} when it passes unchanged or is
	 * withheld
	 * @param unfilterable whether the message must be withheld
	 */
	record Result(byte @Nullable [] rewritten, boolean unfilterable) {

		static final Result UNCHANGED = new Result(null, false);

		static final Result UNFILTERABLE = new Result(null, true);

	}

}
