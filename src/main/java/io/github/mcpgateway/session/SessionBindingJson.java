package io.github.mcpgateway.session;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * A {@link SessionBinding} as the Redis store keeps it: versioned JSON ({@code "v": 1}),
 * the principal omitted for none. A value this version cannot read names no binding, so a
 * replica of an older version never misreads a newer one's.
 */
final class SessionBindingJson {

	private static final JsonMapper json = JsonMapper.builder().build();

	private SessionBindingJson() {
	}

	/**
	 * The binding a stored value names, or {@code null} for none or one this version
	 * cannot read.
	 */
	static @Nullable SessionBinding decode(@Nullable String value) {
		if (value == null || value.isEmpty()) {
			return null;
		}
		try {
			JsonNode node = json.readTree(value);
			if (node.path("v").asInt() != 1 || !node.path("server").isString() || !node.path("serverKey").isString()) {
				return null;
			}
			return new SessionBinding(node.get("server").asString(), node.get("serverKey").asString(),
					PrincipalJson.read(node.get("principal")));
		}
		catch (JacksonException | IllegalArgumentException ex) {
			return null;
		}
	}

	static String encode(SessionBinding binding) {
		ObjectNode node = json.createObjectNode()
			.put("v", 1)
			.put("server", binding.server())
			.put("serverKey", binding.serverKey());
		McpPrincipal principal = binding.principal();
		if (principal != null) {
			PrincipalJson.write(node, "principal", principal);
		}
		return json.writeValueAsString(node);
	}

}
