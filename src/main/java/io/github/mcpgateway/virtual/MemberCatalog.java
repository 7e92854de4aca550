package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.util.Set;

import jakarta.servlet.ServletException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.transport.McpRevisions;
import io.github.mcpgateway.virtual.MemberCalls.Reply;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

/**
 * One member's part of a merged list ({@link Listing}): the member's list as the member's
 * pipeline filtered it for the caller (its grants and {@code except}; a task list to the
 * caller's own tasks), then only the items the member's selection names and the virtual
 * server's own grants allow, each under its exposed name where the listing prefixes
 * names. Every page of the member's list is read (at most {@value #MAX_PAGES}); a member
 * that does not answer adds nothing and the others stay.
 */
record MemberCatalog(MemberCalls calls, MemberSessions sessions, GrantEvaluator grants, JsonMapper json) {

	static final int MAX_PAGES = 20;

	/**
	 * Adds the member's items the caller may see to {@code into}, leaving out any whose
	 * name is in {@code seen} already (a resource URI an earlier member listed: the first
	 * member in the virtual server's order owns it) and adding the others' to it.
	 */
	void list(VirtualRequest request, Listing listing, Member member, McpServerPolicy server, MemberSession session,
			ArrayNode into, Set<String> seen) throws IOException, ServletException {
		String cursor = null;
		for (int page = 0; page < MAX_PAGES; page++) {
			ObjectNode params = this.json.createObjectNode();
			if (cursor != null) {
				params.put("cursor", cursor);
			}
			statelessMeta(request, session, params);
			Reply reply = this.calls.call(request, server, this.sessions.request(listing.method(), params),
					MemberCalls.headers(session));
			JsonNode result = reply.result();
			if (result == null) {
				VirtualOutcome.memberFailed(request, member, VirtualAuditEvent.Reason.LIST_FAILED);
				return;
			}
			for (JsonNode item : result.path(listing.array())) {
				expose(request, listing, member, item, into, seen);
			}
			cursor = result.path("nextCursor").isString() ? result.path("nextCursor").asString() : null;
			if (cursor == null) {
				return;
			}
		}
	}

	/**
	 * A stateless request carries its revision and the client's capabilities in
	 * {@code params._meta} (2026-07-28): the member's list request carries the client's.
	 */
	private static void statelessMeta(VirtualRequest request, MemberSession session, ObjectNode params) {
		JsonNode clientParams = request.message().params();
		JsonNode meta = (clientParams != null) ? clientParams.get("_meta") : null;
		if (McpRevisions.isStateless(session.protocolVersion()) && meta != null && meta.isObject()) {
			params.set("_meta", meta.deepCopy());
		}
	}

	private void expose(VirtualRequest request, Listing listing, Member member, JsonNode item, ArrayNode into,
			Set<String> seen) {
		if (!(item instanceof ObjectNode object) || !item.path(listing.key()).isString()) {
			return;
		}
		String local = item.path(listing.key()).asString();
		String exposed = listing.prefixed() ? member.expose(local) : local;
		if (listing.kind() != null && (!member.serves(listing.kind(), local)
				|| !this.grants.mayUse(request.virtual(), request.principal(), listing.kind(), exposed))) {
			return;
		}
		if (seen.add(exposed)) {
			into.add(listing.prefixed() ? object.deepCopy().put(listing.key(), exposed) : object);
		}
	}

}
