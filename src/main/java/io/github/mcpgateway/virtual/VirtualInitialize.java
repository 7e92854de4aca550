package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.ServletException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

/**
 * A virtual server's {@code initialize}: a session with every member that answers,
 * offering each the client's capabilities, and one session for the client. The client is
 * answered the oldest protocol version any member agreed to, and the union of the
 * members' capabilities (a capability is the virtual server's when one member has it; a
 * member's list-change notices reach the client on its stream, {@link VirtualStreams}).
 */
record VirtualInitialize(VirtualSessionStore store, MemberSessions sessions, JsonMapper json) {

	@Nullable GatewayError initialize(VirtualRequest request) throws IOException, ServletException {
		JsonNode params = request.message().params();
		String requested = (params != null && params.path("protocolVersion").isString())
				? params.path("protocolVersion").asString() : "2025-03-26";
		JsonNode offered = (params != null) ? params.get("capabilities") : null;
		String capabilities = (offered != null && offered.isObject()) ? this.json.writeValueAsString(offered) : "{}";
		Map<String, MemberSession> opened = new LinkedHashMap<>();
		String agreed = requested;
		for (Member member : request.virtual().members()) {
			McpServerPolicy server = request.serverOf(member);
			MemberSession session = (server != null) ? this.sessions.open(request, server, requested, capabilities)
					: null;
			if (session != null) {
				opened.put(member.prefix(), session);
				agreed = (session.protocolVersion().compareTo(agreed) < 0) ? session.protocolVersion() : agreed;
			}
		}
		if (opened.isEmpty()) {
			return GatewayErrors.MEMBER_UNAVAILABLE;
		}
		String sessionId = this.store
			.open(new VirtualSession(request.virtual().uid(), request.principal(), agreed, capabilities, opened));
		request.response().setHeader(McpHeaders.SESSION_ID, sessionId);
		ObjectNode result = this.json.createObjectNode();
		result.put("protocolVersion", agreed);
		result.set("capabilities", merged(opened));
		result.putObject("serverInfo")
			.put("name", request.virtual().qualifiedName())
			.put("version", request.policy().version());
		VirtualReplies.result(request, result, this.json);
		return null;
	}

	/**
	 * The union of the members' capabilities; the lists always without change notices.
	 */
	private ObjectNode merged(Map<String, MemberSession> members) {
		ObjectNode merged = this.json.createObjectNode();
		for (MemberSession member : members.values()) {
			JsonNode capabilities = MemberSessions.object(member.capabilities(), this.json);
			capabilities.properties().forEach((entry) -> {
				if (entry.getValue() instanceof ObjectNode object
						&& merged.get(entry.getKey()) instanceof ObjectNode into) {
					into.setAll(object.deepCopy());
				}
				else if (!merged.has(entry.getKey())) {
					merged.set(entry.getKey(), entry.getValue().deepCopy());
				}
			});
		}
		if (!merged.has("tools")) {
			merged.putObject("tools");
		}
		return merged;
	}

}
