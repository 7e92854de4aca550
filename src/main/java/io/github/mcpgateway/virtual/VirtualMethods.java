package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.MediaType;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.revocation.RevocationSync;
import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

/**
 * What a virtual server answers, method by method: {@code initialize} opens a session
 * with every member and one with the client; {@code ping} is answered here;
 * {@code tools/list} merges the members' lists ({@link ToolCatalog}); {@code tools/call}
 * goes to the member its prefix names ({@link ToolCallRoute}); any other request is
 * {@code virtual_method_unsupported} in this increment, and a notification is accepted.
 */
record VirtualMethods(VirtualSessionStore store, MemberSessions members, ToolCatalog catalog, ToolCallRoute route,
		RevocationSync revocations, JsonMapper json) {

	/** Answers {@code request}; returns the refusal to render instead, if any. */
	@Nullable GatewayError answer(VirtualRequest request) throws IOException, ServletException {
		JsonRpcMessage message = request.message();
		if (message.kind() != JsonRpcMessage.Kind.REQUEST) {
			// Notifications are the virtual server's own (the members were told when
			// their sessions opened); a client's response answers nothing the gateway
			// sent.
			request.response().setStatus(HttpServletResponse.SC_ACCEPTED);
			return null;
		}
		GatewayError refused = refusedFirst(request);
		if (refused != null) {
			return refused;
		}
		if (JsonRpcMessage.INITIALIZE.equals(message.method())) {
			return initialize(request);
		}
		String sessionId = request.client().getHeader(McpHeaders.SESSION_ID);
		VirtualSession session = (sessionId != null) ? session(request, sessionId) : null;
		if (session == null) {
			return GatewayErrors.SESSION_NOT_FOUND;
		}
		return switch (String.valueOf(message.method())) {
			case "ping" -> reply(request, this.json.createObjectNode());
			case JsonRpcMessage.TOOLS_LIST -> listTools(request, sessionId, session);
			case JsonRpcMessage.TOOLS_CALL -> this.route.call(request, sessionId, session);
			default -> GatewayErrors.VIRTUAL_METHOD_UNSUPPORTED;
		};
	}

	/**
	 * What is refused before any session, as on a server's path: a revoked principal, and
	 * an Idempotency-Key on anything but {@code tools/call}.
	 */
	private @Nullable GatewayError refusedFirst(VirtualRequest request) {
		if (this.revocations.current().revokesPrincipal(request.principal())) {
			return GatewayErrors.PRINCIPAL_REVOKED;
		}
		if (!JsonRpcMessage.TOOLS_CALL.equals(request.message().method())
				&& request.client().getHeader(McpHeaders.IDEMPOTENCY_KEY) != null) {
			return GatewayErrors.IDEMPOTENCY_UNSUPPORTED_REQUEST;
		}
		return null;
	}

	/**
	 * The caller's virtual session {@code sessionId}, or {@code null}: unknown, another
	 * caller's, or revoked (then forgotten, as the session stage forgets a revoked one).
	 */
	private @Nullable VirtualSession session(VirtualRequest request, String sessionId) {
		if (this.revocations.current().revokesSession(sessionId)) {
			this.store.remove(sessionId);
			return null;
		}
		return this.store.find(sessionId, request.virtual().uid(), request.principal());
	}

	/** Ends the client's virtual session and the gateway's member sessions under it. */
	void end(HttpServletRequest client, HttpServletResponse response, VirtualServerPolicy virtual,
			McpPrincipal principal) throws IOException, ServletException {
		String sessionId = client.getHeader(McpHeaders.SESSION_ID);
		VirtualSession session = (sessionId != null) ? this.store.find(sessionId, virtual.uid(), principal) : null;
		if (session == null) {
			response.setStatus(HttpServletResponse.SC_NOT_FOUND);
			return;
		}
		this.store.remove(sessionId);
		response.setStatus(HttpServletResponse.SC_NO_CONTENT);
	}

	private @Nullable GatewayError initialize(VirtualRequest request) throws IOException, ServletException {
		JsonNode params = request.message().params();
		String requested = (params != null && params.path("protocolVersion").isString())
				? params.path("protocolVersion").asString() : "2025-03-26";
		Map<String, MemberSession> opened = new LinkedHashMap<>();
		String agreed = requested;
		for (Member member : request.virtual().members()) {
			McpServerPolicy server = request.serverOf(member);
			MemberSession session = (server != null)
					? this.members.open(request.client(), request.response(), request.policy(), server, requested)
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
			.open(new VirtualSession(request.virtual().uid(), request.principal(), agreed, opened));
		request.response().setHeader(McpHeaders.SESSION_ID, sessionId);
		ObjectNode result = this.json.createObjectNode();
		result.put("protocolVersion", agreed);
		result.putObject("capabilities").putObject("tools").put("listChanged", false);
		result.putObject("serverInfo")
			.put("name", request.virtual().qualifiedName())
			.put("version", request.policy().version());
		return reply(request, result);
	}

	private @Nullable GatewayError listTools(VirtualRequest request, String sessionId, VirtualSession session)
			throws IOException, ServletException {
		ArrayNode tools = this.json.createArrayNode();
		for (Member member : request.virtual().members()) {
			McpServerPolicy server = request.serverOf(member);
			MemberSession memberSession = (server != null)
					? this.route.memberSession(request, sessionId, session, member, server) : null;
			if (memberSession != null) {
				this.catalog.list(request, member, server, memberSession, tools);
			}
		}
		ObjectNode result = this.json.createObjectNode();
		result.set("tools", tools);
		return reply(request, result);
	}

	private @Nullable GatewayError reply(VirtualRequest request, JsonNode result) throws IOException {
		ObjectNode response = this.json.createObjectNode();
		response.put("jsonrpc", "2.0");
		response.set("id", request.message().id());
		response.set("result", result);
		HttpServletResponse servlet = request.response();
		servlet.setStatus(HttpServletResponse.SC_OK);
		servlet.setContentType(MediaType.APPLICATION_JSON_VALUE);
		servlet.getOutputStream().write(this.json.writeValueAsBytes(response));
		return null;
	}

}
