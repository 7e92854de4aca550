package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.util.Map;

import jakarta.servlet.ServletException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.grant.GrantErrors;
import io.github.mcpgateway.jsonrpc.JsonMembers;
import io.github.mcpgateway.policy.GrantDecision;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

/**
 * A {@code tools/call} on a virtual server, sent to the one member its prefix names, as
 * that member's own call: the tool's name the member's ({@code notes_echo} goes as
 * {@code echo}, every other byte of the body as the client sent it), the gateway's
 * session with the member, and the member's pipeline deciding it with the original
 * arguments. The reply reaches the client as the member sends it, a stream unbuffered.
 *
 * <p>
 * A member session that the member (or the gateway's session binding) no longer knows
 * answers 404; the member did not run the call, so a new member session is opened and the
 * call sent once more. The client keeps its session throughout.
 */
record ToolCallRoute(MemberCalls calls, MemberSessions sessions, VirtualSessionStore store, GrantEvaluator grants,
		JsonMapper json) {

	/**
	 * The refusal of the virtual server's own grants, which narrow the member's (on the
	 * exposed name, with the call's arguments), or {@code null}: none, or they allow it.
	 */
	private @Nullable GatewayError narrowed(VirtualRequest request, String exposed, JsonNode params) {
		if (request.virtual().grants().isEmpty()) {
			return null;
		}
		GrantDecision decision = this.grants.decideRequest(request.virtual(), request.principal(), exposed,
				params.get("arguments"));
		return decision.allowed() ? null : GrantErrors.errorOf(decision);
	}

	@Nullable GatewayError call(VirtualRequest request, String sessionId, VirtualSession session)
			throws IOException, ServletException {
		JsonNode params = request.message().params();
		String exposed = (params != null && params.path("name").isString()) ? params.path("name").asString() : null;
		Member member = (exposed != null) ? request.virtual().memberOf(exposed) : null;
		McpServerPolicy server = (member != null) ? request.serverOf(member) : null;
		if (member == null || server == null || !member.serves(member.localName(exposed))) {
			return GatewayErrors.TOOL_UNKNOWN;
		}
		GatewayError narrowed = narrowed(request, exposed, params);
		if (narrowed != null) {
			return narrowed;
		}
		MemberSession memberSession = memberSession(request, sessionId, session, member, server);
		if (memberSession == null) {
			return GatewayErrors.MEMBER_UNAVAILABLE;
		}
		byte[] body = renamed(request.body(), member.localName(exposed));
		NotFoundCatcher first = new NotFoundCatcher(request.response());
		this.calls.send(memberRequest(request, server, body, memberSession, member.localName(exposed)),
				request.policy(), server, first);
		if (first.caught() && memberSession.sessionId() != null) {
			MemberSession renewed = open(request, sessionId, member, server);
			if (renewed == null) {
				return GatewayErrors.MEMBER_UNAVAILABLE;
			}
			this.calls.send(memberRequest(request, server, body, renewed, member.localName(exposed)), request.policy(),
					server, request.response());
		}
		return null;
	}

	/** The gateway's session with {@code member}, opened now if it has none yet. */
	@Nullable MemberSession memberSession(VirtualRequest request, String sessionId, VirtualSession session, Member member,
			McpServerPolicy server) throws IOException, ServletException {
		MemberSession existing = session.members().get(member.prefix());
		return (existing != null) ? existing : open(request, sessionId, member, server);
	}

	private @Nullable MemberSession open(VirtualRequest request, String sessionId, Member member,
			McpServerPolicy server) throws IOException, ServletException {
		VirtualSession session = this.store.find(sessionId, request.virtual().uid(), request.principal());
		if (session == null) {
			return null;
		}
		MemberSession opened = this.sessions.open(request.client(), request.response(), request.policy(), server,
				session.protocolVersion());
		if (opened != null) {
			this.store.update(sessionId, session.with(member.prefix(), opened));
		}
		return opened;
	}

	private MemberRequest memberRequest(VirtualRequest request, McpServerPolicy server, byte[] body,
			MemberSession session, String localName) {
		Map<String, @Nullable String> headers = MemberCalls.headers(session);
		// The client's own: how it takes the reply, its routing headers and its key.
		headers.remove(HttpHeaders.ACCEPT);
		headers.remove(McpHeaders.METHOD);
		headers.remove(McpHeaders.IDEMPOTENCY_KEY);
		if (request.client().getHeader(McpHeaders.NAME) == null) {
			headers.remove(McpHeaders.NAME);
		}
		else {
			headers.put(McpHeaders.NAME, localName);
		}
		return MemberRequest.post(request.client(), server.path(), body, headers);
	}

	/**
	 * {@code body} with {@code params.name} set to {@code name}, every other byte kept.
	 */
	private byte[] renamed(byte[] body, String name) {
		byte[] without = JsonMembers.remove(body, "params", "name");
		String member = "\"name\":" + this.json.writeValueAsString(name);
		return JsonMembers.insertFirst(without, member, "params");
	}

}
