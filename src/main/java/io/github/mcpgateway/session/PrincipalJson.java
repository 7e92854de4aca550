package io.github.mcpgateway.session;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * A principal as the Redis stores keep it: an object with {@code human}, {@code agent}
 * and {@code team}, a missing part written as {@code null}. One format for the session
 * bindings ({@link SessionBindingJson}) and the virtual sessions
 * ({@code virtual.RedisVirtualSessionStore}), so a principal reads the same wherever a
 * replica finds it.
 */
public final class PrincipalJson {

	private PrincipalJson() {
	}

	/** Writes {@code principal} as the object {@code field} of {@code parent}. */
	public static void write(ObjectNode parent, String field, McpPrincipal principal) {
		parent.putObject(field)
			.put("human", principal.human())
			.put("agent", principal.agent())
			.put("team", principal.team());
	}

	/**
	 * The principal {@code node} names, or {@code null} when it is not an object.
	 * @throws IllegalArgumentException if the object names no valid principal
	 */
	public static @Nullable McpPrincipal read(@Nullable JsonNode node) {
		if (node == null || !node.isObject()) {
			return null;
		}
		return new McpPrincipal(node.path("human").asString(), textOrNull(node.get("agent")),
				textOrNull(node.get("team")));
	}

	private static @Nullable String textOrNull(@Nullable JsonNode node) {
		return (node != null && node.isString()) ? node.asString() : null;
	}

}
