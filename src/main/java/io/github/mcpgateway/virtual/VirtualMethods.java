package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.revocation.RevocationSync;
import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.transport.McpRevisions;
import io.github.mcpgateway.virtual.MemberLists.Fetched;

/**
 * What a virtual server answers, method by method: {@code initialize} opens a session
 * with every member and one with the client ({@link VirtualInitialize}); {@code ping} is
 * answered here; a list method merges the members' lists ({@link MemberCatalog});
 * {@code logging/setLevel} and the client's notifications go to every member; every other
 * request, and the client's answer to a member's request, goes to the one member it names
 * ({@link MemberTargets}, {@link MemberRoute}).
 */
record VirtualMethods(VirtualSessionStore store, VirtualInitialize initializer, MemberCatalog catalog,
		MemberTargets targets, MemberRoute route, MemberBroadcast broadcast, VirtualStreams streams,
		ListenFanOut listens, ListPages pages, RevocationSync revocations, JsonMapper json) {

	/** Answers {@code request}; returns the refusal to render instead, if any. */
	@Nullable GatewayError answer(VirtualRequest request) throws IOException, ServletException {
		GatewayError refused = refusedFirst(request);
		if (refused != null) {
			return refused;
		}
		JsonRpcMessage message = request.message();
		if (JsonRpcMessage.INITIALIZE.equals(message.method()) && message.kind() == JsonRpcMessage.Kind.REQUEST) {
			return this.initializer.initialize(request);
		}
		if (McpRevisions.isStateless(request.client())) {
			return stateless(request);
		}
		String sessionId = request.client().getHeader(McpHeaders.SESSION_ID);
		if (sessionId == null) {
			return GatewayErrors.SESSION_ID_MISSING;
		}
		VirtualSession session = session(request.virtual(), request.principal(), sessionId);
		if (session == null) {
			return GatewayErrors.SESSION_NOT_FOUND;
		}
		try {
			return switch (message.kind()) {
				case REQUEST -> request(request, sessionId, session);
				case RESPONSE -> response(request, sessionId, session);
				case NOTIFICATION -> notification(request, sessionId, session);
			};
		}
		catch (GatewayErrorException ex) {
			return ex.error();
		}
	}

	/**
	 * A request of the stateless revision (2026-07-28): no session, each member asked
	 * statelessly; {@code server/discover} merges the members' answers. It has no
	 * server-to-client requests to answer, and a notification concerns no session.
	 */
	private @Nullable GatewayError stateless(VirtualRequest request) throws IOException, ServletException {
		if (request.message().kind() != JsonRpcMessage.Kind.REQUEST) {
			request.response().setStatus(HttpServletResponse.SC_ACCEPTED);
			return null;
		}
		if (JsonRpcMessage.INITIALIZE.equals(request.message().method())) {
			return GatewayErrors.VIRTUAL_METHOD_UNSUPPORTED;
		}
		VirtualSession session = VirtualSession.stateless(request.virtual().uid(), request.principal(),
				request.virtual().members().stream().map(Member::prefix).toList());
		try {
			return switch (String.valueOf(request.message().method())) {
				case "server/discover" -> this.initializer.discover(request);
				case "subscriptions/listen" -> {
					this.listens.listen(request, session);
					yield null;
				}
				default -> request(request, request.statelessKey(), session);
			};
		}
		catch (GatewayErrorException ex) {
			return ex.error();
		}
	}

	private @Nullable GatewayError request(VirtualRequest request, String sessionId, VirtualSession session)
			throws IOException, ServletException {
		String method = String.valueOf(request.message().method());
		Listing listing = Listing.of(method);
		if (listing != null) {
			return list(request, sessionId, session, listing);
		}
		if ("ping".equals(method)) {
			return reply(request, this.json.createObjectNode());
		}
		if ("logging/setLevel".equals(method)) {
			this.broadcast.send(request, session, "logging");
			return reply(request, this.json.createObjectNode());
		}
		return this.route.send(request, sessionId, session, this.targets.of(request, sessionId, session));
	}

	/** The client's answer to a member's request goes to that member; any other: 202. */
	private @Nullable GatewayError response(VirtualRequest request, String sessionId, VirtualSession session)
			throws IOException, ServletException {
		MemberTarget target = this.targets.response(request);
		if (target == null) {
			request.response().setStatus(HttpServletResponse.SC_ACCEPTED);
			return null;
		}
		return this.route.send(request, sessionId, session, target);
	}

	/**
	 * A notification of the client's ({@code notifications/cancelled}, a roots change)
	 * concerns whichever member received what it names, so every member is told; the
	 * members' own {@code notifications/initialized} was sent when their sessions opened.
	 */
	private @Nullable GatewayError notification(VirtualRequest request, String sessionId, VirtualSession session)
			throws IOException, ServletException {
		if (!"notifications/initialized".equals(request.message().method())) {
			this.broadcast.send(request, session, null);
		}
		request.response().setStatus(HttpServletResponse.SC_ACCEPTED);
		return null;
	}

	/**
	 * What is refused before any session, as on a server's path: a revoked principal, an
	 * {@code MCP-Protocol-Version} that names no revision (MCP: 400), and an
	 * Idempotency-Key on anything but {@code tools/call}.
	 */
	private @Nullable GatewayError refusedFirst(VirtualRequest request) {
		if (this.revocations.current().revokesPrincipal(request.principal())) {
			return GatewayErrors.PRINCIPAL_REVOKED;
		}
		String version = request.client().getHeader(McpHeaders.PROTOCOL_VERSION);
		if (version != null && !McpRevisions.KNOWN.contains(version)) {
			return GatewayErrors.PROTOCOL_VERSION_UNSUPPORTED;
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
	private @Nullable VirtualSession session(VirtualServerPolicy virtual, McpPrincipal principal, String sessionId) {
		if (this.revocations.current().revokesSession(sessionId)) {
			this.store.remove(sessionId);
			return null;
		}
		return this.store.find(sessionId, virtual.uid(), principal);
	}

	/**
	 * The client's stream (a GET): the members' streams merged ({@link VirtualStreams});
	 * refused as a server without a stream refuses it when no member offers one.
	 */
	@Nullable GatewayError stream(HttpServletRequest client, HttpServletResponse response, Policy policy,
			VirtualServerPolicy virtual, McpPrincipal principal) {
		if (this.revocations.current().revokesPrincipal(principal)) {
			return GatewayErrors.PRINCIPAL_REVOKED;
		}
		String sessionId = client.getHeader(McpHeaders.SESSION_ID);
		if (sessionId == null) {
			return GatewayErrors.SESSION_ID_MISSING;
		}
		VirtualSession session = session(virtual, principal, sessionId);
		if (session == null) {
			return GatewayErrors.SESSION_NOT_FOUND;
		}
		if (!this.streams.relay(client, response, policy, virtual, session)) {
			response.setHeader("Allow", "POST, DELETE");
			return GatewayErrors.METHOD_NOT_ALLOWED;
		}
		return null;
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
		this.catalog.lists().ended(sessionId);
		response.setStatus(HttpServletResponse.SC_NO_CONTENT);
	}

	/**
	 * One list of every member's items, in member order, as one page: the members that
	 * declared the capability the list belongs to are asked, all at once (their sessions
	 * opened first, one after another, as each updates the client's session), each list
	 * from {@link MemberCatalog#start} (reused for a short time, {@link MemberLists}).
	 */
	private @Nullable GatewayError list(VirtualRequest request, String sessionId, VirtualSession session,
			Listing listing) throws IOException, ServletException {
		Map<Member, CompletableFuture<Fetched>> lists = new LinkedHashMap<>();
		this.route.serving(request, sessionId, session, listing.capability())
			.forEach((member, memberSession) -> lists.put(member,
					this.catalog.start(request, sessionId, listing, member, request.serverOf(member), memberSession)));
		ArrayNode items = this.catalog.merge(request, listing, lists);
		ObjectNode result = this.json.createObjectNode();
		JsonNode params = request.message().params();
		this.pages.page(items, (params != null) ? params.get("cursor") : null, listing.method(), listing.array(),
				result);
		return reply(request, result);
	}

	private @Nullable GatewayError reply(VirtualRequest request, JsonNode result) throws IOException {
		VirtualReplies.result(request, result, this.json);
		return null;
	}

}
