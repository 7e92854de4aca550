package io.github.mcpgateway.task;

import java.time.Instant;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.principal.McpPrincipal;

/** A {@link TaskBinding} as the Redis store keeps it: versioned JSON. */
final class TaskBindingJson {

	private static final JsonMapper json = JsonMapper.builder().build();

	private TaskBindingJson() {
	}

	static String encode(TaskBinding binding) {
		ObjectNode node = json.createObjectNode()
			.put("v", 1)
			.put("server", binding.server())
			.put("serverKey", binding.serverKey())
			.put("tool", binding.tool())
			.put("session", binding.session())
			.put("expiresAt", binding.expiresAt().toEpochMilli());
		node.putObject("principal")
			.put("human", binding.principal().human())
			.put("agent", binding.principal().agent())
			.put("team", binding.principal().team());
		return json.writeValueAsString(node);
	}

	/**
	 * The binding a stored value names; {@code null} for none, one that expired by
	 * {@code now}, or one this version cannot read (which therefore allows nothing).
	 */
	static @Nullable TaskBinding decode(@Nullable String value, Instant now) {
		if (value == null || value.isEmpty()) {
			return null;
		}
		try {
			JsonNode node = json.readTree(value);
			JsonNode principal = node.path("principal");
			if (node.path("v").asInt() != 1 || !node.path("server").isString() || !node.path("tool").isString()
					|| !node.path("expiresAt").isNumber() || !principal.path("human").isString()) {
				return null;
			}
			Instant expiresAt = Instant.ofEpochMilli(node.get("expiresAt").asLong());
			if (!expiresAt.isAfter(now)) {
				return null;
			}
			return new TaskBinding(node.get("server").asString(), node.path("serverKey").asString(""),
					new McpPrincipal(principal.get("human").asString(), text(principal.get("agent")),
							text(principal.get("team"))),
					node.get("tool").asString(), text(node.get("session")), expiresAt);
		}
		catch (JacksonException | IllegalArgumentException ex) {
			return null;
		}
	}

	private static @Nullable String text(@Nullable JsonNode node) {
		return (node != null && node.isString()) ? node.asString() : null;
	}

}
