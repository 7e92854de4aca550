package io.github.mcpgateway.virtual;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.session.PrincipalJson;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

/**
 * A {@link VirtualSession} as the Redis store keeps it: versioned JSON ({@code "v": 1})
 * with the principal as the session bindings write it ({@link PrincipalJson}), the
 * client's capabilities as JSON text, and the member sessions by prefix, a member without
 * sessions with {@code "sessionId": null}. A value this version cannot read names no
 * session, so a replica of an older version never misreads a newer one's.
 */
final class VirtualSessionJson {

	private static final JsonMapper json = JsonMapper.builder().build();

	private VirtualSessionJson() {
	}

	static String encode(VirtualSession session) {
		ObjectNode node = json.createObjectNode()
			.put("v", 1)
			.put("virtual", session.virtualUid())
			.put("protocolVersion", session.protocolVersion())
			.put("capabilities", session.capabilities());
		PrincipalJson.write(node, "principal", session.principal());
		ObjectNode members = node.putObject("members");
		session.members()
			.forEach((prefix, member) -> members.putObject(prefix)
				.put("sessionId", member.sessionId())
				.put("protocolVersion", member.protocolVersion())
				.put("capabilities", member.capabilities()));
		return json.writeValueAsString(node);
	}

	/**
	 * The session a stored value names, or {@code null} for none or one this version
	 * cannot read.
	 */
	static @Nullable VirtualSession decode(@Nullable String value) {
		if (value == null || value.isEmpty()) {
			return null;
		}
		try {
			JsonNode node = json.readTree(value);
			McpPrincipal principal = PrincipalJson.read(node.get("principal"));
			if (node.path("v").asInt() != 1 || !node.path("virtual").isString()
					|| !node.path("protocolVersion").isString() || principal == null
					|| !node.path("members").isObject()) {
				return null;
			}
			Map<String, MemberSession> members = new LinkedHashMap<>();
			for (Map.Entry<String, JsonNode> member : node.get("members").properties()) {
				JsonNode sessionId = member.getValue().path("sessionId");
				if (!member.getValue().path("protocolVersion").isString()) {
					return null;
				}
				JsonNode capabilities = member.getValue().path("capabilities");
				members.put(member.getKey(),
						new MemberSession(sessionId.isString() ? sessionId.asString() : null,
								member.getValue().get("protocolVersion").asString(),
								capabilities.isString() ? capabilities.asString() : "{}"));
			}
			// A session an earlier version stored has no capabilities: none were offered.
			String capabilities = node.path("capabilities").isString() ? node.get("capabilities").asString() : "{}";
			return new VirtualSession(node.get("virtual").asString(), principal, node.get("protocolVersion").asString(),
					capabilities, members);
		}
		catch (JacksonException | IllegalArgumentException ex) {
			return null;
		}
	}

}
