package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.ServletException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.quota.VirtualQuota;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.transport.FilteredResponse;
import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

/**
 * A client message a virtual server sends to the one member it names
 * ({@link MemberTarget}), as that member's own: the body with the member's own names and
 * ids, the gateway's session with the member, and the member's pipeline deciding it. The
 * reply reaches the client as the member sends it, a stream unbuffered, except for the
 * ids the member chose ({@link MemberMessages}) and the member's session id.
 *
 * <p>
 * A member session that the member (or the gateway's session binding) no longer knows
 * answers 404; the member did not run the request, so a new member session is opened and
 * the request sent once more. The client keeps its session throughout.
 *
 * <p>
 * The virtual server's own {@code limits} are charged here, on the one member request a
 * client message becomes, by the member's quota stage ({@link VirtualQuota}); the
 * messages the virtual server answers for the whole or fans out (initialize, lists, ping,
 * {@code logging/setLevel}, notifications, streams) consume none of them.
 */
record MemberRoute(MemberCalls calls, MemberSessions sessions, VirtualSessionStore store, MemberLists lists,
		JsonMapper json, int maxReplyBytes) {

	/** Sends {@code target}; returns the refusal to render instead, if any. */
	@Nullable GatewayError send(VirtualRequest request, String sessionId, VirtualSession session, MemberTarget target)
			throws IOException, ServletException {
		MemberSession memberSession = memberSession(request, sessionId, session, target.member(), target.server());
		if (memberSession == null) {
			return GatewayErrors.MEMBER_UNAVAILABLE;
		}
		if (!relay(request, target, memberSession) && memberSession.sessionId() != null) {
			MemberSession renewed = open(request, sessionId, target.member(), target.server());
			if (renewed == null) {
				return GatewayErrors.MEMBER_UNAVAILABLE;
			}
			relay(request, target, renewed);
		}
		return null;
	}

	/**
	 * Relays the member's reply to {@code target}; {@code false} when the member answered
	 * 404 instead, which the client did not see.
	 */
	private boolean relay(VirtualRequest request, MemberTarget target, MemberSession session)
			throws IOException, ServletException {
		NotFoundCatcher catcher = new NotFoundCatcher(request.response());
		FilteredResponse relayed = new FilteredResponse(catcher,
				new MemberMessages(target.member(), this.json, this.lists), this.maxReplyBytes,
				FilteredResponse.Unreadable.PASS);
		MemberRequest sent = memberRequest(request, target, session);
		this.calls.send(sent, request.policy(), target.server(), relayed);
		relayed.finish();
		VirtualOutcome outcome = VirtualOutcome.find(request.client());
		if (outcome != null) {
			outcome.routed(target.member(), target.server(), McpRequestContext.find(sent));
		}
		return !catcher.caught();
	}

	/**
	 * The members that declared the server capability {@code capability}, in order, each
	 * with the gateway's session with it (opened now where it has none yet); a member
	 * that left the policy or cannot be reached is not among them.
	 */
	Map<Member, MemberSession> serving(VirtualRequest request, String sessionId, VirtualSession session,
			String capability) throws IOException, ServletException {
		Map<Member, MemberSession> serving = new LinkedHashMap<>();
		for (Member member : request.virtual().members()) {
			McpServerPolicy server = request.serverOf(member);
			MemberSession memberSession = (server != null) ? memberSession(request, sessionId, session, member, server)
					: null;
			if (memberSession != null && memberSession.offers(capability)) {
				serving.put(member, memberSession);
			}
		}
		return serving;
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
		MemberSession opened = this.sessions.open(request, server, session.protocolVersion(), session.capabilities());
		if (opened != null) {
			this.store.update(sessionId, session.with(member.prefix(), opened));
		}
		else {
			VirtualOutcome.memberFailed(request, member, VirtualAuditEvent.Reason.UNAVAILABLE);
		}
		return opened;
	}

	private MemberRequest memberRequest(VirtualRequest request, MemberTarget target, MemberSession session) {
		Map<String, @Nullable String> headers = MemberCalls.headers(session);
		// The client's own: how it takes the reply, its routing headers and its key.
		headers.remove(HttpHeaders.ACCEPT);
		headers.remove(McpHeaders.METHOD);
		headers.remove(McpHeaders.IDEMPOTENCY_KEY);
		if (request.client().getHeader(McpHeaders.NAME) != null) {
			// The member's own name of what the client named (2026-07-28 mirrors it).
			headers.put(McpHeaders.NAME, target.name());
		}
		MemberRequest sent = MemberRequest.post(request.client(), target.server().path(), target.body(), headers);
		if (!request.virtual().limits().isEmpty()) {
			// One client message to one member: the virtual server's own limits are
			// charged with the member's, on the name the client called.
			JsonRpcMessage message = request.message();
			VirtualQuota.attach(sent,
					new VirtualQuota(request.virtual(), message.isToolCall() ? message.toolName() : null));
		}
		return sent;
	}

}
