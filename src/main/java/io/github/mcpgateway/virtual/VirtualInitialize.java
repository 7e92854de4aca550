package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

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
import io.github.mcpgateway.transport.McpRevisions;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

/**
 * A virtual server's {@code initialize}: a session with every member that answers,
 * offering each the client's capabilities, and one session for the client. The client is
 * answered the oldest protocol version any member agreed to, and the union of the
 * members' capabilities (a capability is the virtual server's when one member has it; a
 * member's list-change notices reach the client on its stream, {@link VirtualStreams}).
 */
record VirtualInitialize(VirtualSessionStore store, MemberSessions sessions, MemberCalls calls, JsonMapper json) {

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
			else {
				VirtualOutcome.memberFailed(request, member, VirtualAuditEvent.Reason.UNAVAILABLE);
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
		result.set("capabilities", merged(
				opened.values().stream().map((member) -> MemberSessions.object(member.capabilities(), this.json))));
		result.putObject("serverInfo")
			.put("name", request.virtual().qualifiedName())
			.put("version", request.policy().version());
		VirtualReplies.result(request, result, this.json);
		return null;
	}

	/**
	 * A stateless client's {@code server/discover} (2026-07-28): each member's, asked
	 * statelessly with the client's request, merged; the revision the virtual server
	 * speaks statelessly is the one the client asked in.
	 */
	@Nullable GatewayError discover(VirtualRequest request) throws IOException, ServletException {
		String body = new String(request.body(), StandardCharsets.UTF_8);
		List<JsonNode> capabilities = new ArrayList<>();
		for (Member member : request.virtual().members()) {
			McpServerPolicy server = request.serverOf(member);
			JsonNode result = (server != null)
					? this.calls
						.call(request, server, body,
								MemberCalls.headers(new MemberSession(null, McpRevisions.STATELESS, "{}"),
										"server/discover"))
						.result()
					: null;
			if (result != null && result.path("capabilities").isObject()) {
				capabilities.add(result.get("capabilities"));
			}
			else {
				VirtualOutcome.memberFailed(request, member, VirtualAuditEvent.Reason.UNAVAILABLE);
			}
		}
		if (capabilities.isEmpty()) {
			return GatewayErrors.MEMBER_UNAVAILABLE;
		}
		ObjectNode result = this.json.createObjectNode();
		result.putArray("supportedVersions").add(McpRevisions.STATELESS);
		result.set("capabilities", merged(capabilities.stream()));
		VirtualReplies.result(request, result, this.json);
		return null;
	}

	/** The union of the members' capabilities, {@code tools} always among them. */
	private ObjectNode merged(Stream<JsonNode> members) {
		ObjectNode merged = this.json.createObjectNode();
		members.forEach((capabilities) -> capabilities.properties().forEach((entry) -> {
			if (entry.getValue() instanceof ObjectNode object
					&& merged.get(entry.getKey()) instanceof ObjectNode into) {
				into.setAll(object.deepCopy());
			}
			else if (!merged.has(entry.getKey())) {
				merged.set(entry.getKey(), entry.getValue().deepCopy());
			}
		}));
		if (!merged.has("tools")) {
			merged.putObject("tools");
		}
		return merged;
	}

}
