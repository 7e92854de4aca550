package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import jakarta.servlet.ServletException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.transport.McpRevisions;
import io.github.mcpgateway.virtual.MemberLists.Fetched;
import io.github.mcpgateway.virtual.MemberLists.Key;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

/**
 * One member's part of a merged list ({@link Listing}): the member's list as the member's
 * pipeline filtered it for the caller (its grants and {@code except}; a task list to the
 * caller's own tasks), then only the items the member's selection names and the virtual
 * server's own grants allow, each under its exposed name where the listing prefixes
 * names. Every page of the member's list is read (at most {@value #MAX_PAGES}); a member
 * that does not answer adds nothing (or the pages it answered) and the others stay. The
 * member's list is read concurrently with the other members' and reused for a short time
 * ({@link MemberLists}); the selection and the virtual server's grants are applied to it
 * on every request.
 */
record MemberCatalog(MemberCalls calls, MemberSessions sessions, GrantEvaluator grants, MemberLists lists,
		JsonMapper json) {

	static final int MAX_PAGES = 20;

	/**
	 * Starts reading the member's list for this caller on a thread of its own, or takes
	 * it from {@link MemberLists}: the members of one merged list are asked at the same
	 * time, each for one page after another.
	 * @param sessionId the client's virtual session id ({@code null} without one)
	 */
	CompletableFuture<Fetched> start(VirtualRequest request, @Nullable String sessionId, Listing listing, Member member,
			McpServerPolicy server, MemberSession session) {
		Key key = new Key(sessionId, request.principal(), member.server(), listing.method(), session.sessionId(),
				server);
		return this.lists.get(key, () -> fetch(request, listing, server, session));
	}

	/**
	 * Waits for every fetch to end, however it ends: a fetch uses the client's request,
	 * which must outlive it. Uninterruptible for that reason; the member pipeline's
	 * upstream timeouts bound the wait.
	 */
	static void awaitAll(Collection<CompletableFuture<Fetched>> fetches) {
		CompletableFuture.allOf(fetches.toArray(CompletableFuture[]::new)).exceptionally((failure) -> null).join();
	}

	/**
	 * The merged list of {@code lists} (each member's, in the order given), once each has
	 * ended ({@link #add}).
	 */
	ArrayNode merge(VirtualRequest request, Listing listing, Map<Member, CompletableFuture<Fetched>> lists) {
		awaitAll(lists.values());
		ArrayNode items = this.json.createArrayNode();
		Set<String> seen = new HashSet<>();
		lists.forEach((member, fetched) -> add(request, listing, member, fetched, items, seen));
		return items;
	}

	/**
	 * Adds the member's items the caller may see to {@code into} once {@code fetched}
	 * completes, leaving out any whose name is in {@code seen} already (a resource URI an
	 * earlier member listed: the first member in the virtual server's order owns it) and
	 * adding the others' to it.
	 */
	void add(VirtualRequest request, Listing listing, Member member, CompletableFuture<Fetched> fetched, ArrayNode into,
			Set<String> seen) {
		Fetched list;
		try {
			list = fetched.join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof RuntimeException cause) {
				throw cause;
			}
			throw ex;
		}
		if (!list.complete()) {
			// Recorded here, on the client's thread: the fetch ran on another.
			VirtualOutcome.memberFailed(request, member, VirtualAuditEvent.Reason.LIST_FAILED);
		}
		for (JsonNode item : list.items()) {
			expose(request, listing, member, item, into, seen);
		}
	}

	/** {@link #start} and {@link #add} of one member. */
	void list(VirtualRequest request, @Nullable String sessionId, Listing listing, Member member,
			McpServerPolicy server, MemberSession session, ArrayNode into, Set<String> seen) {
		CompletableFuture<Fetched> fetched = start(request, sessionId, listing, member, server, session);
		awaitAll(List.of(fetched));
		add(request, listing, member, fetched, into, seen);
	}

	/**
	 * The member's list as its pipeline returns it, every page; a page that fails ends
	 * it, incomplete.
	 */
	private Fetched fetch(VirtualRequest request, Listing listing, McpServerPolicy server, MemberSession session) {
		ArrayNode items = this.json.createArrayNode();
		String cursor = null;
		try {
			for (int page = 0; page < MAX_PAGES; page++) {
				ObjectNode params = this.json.createObjectNode();
				if (cursor != null) {
					params.put("cursor", cursor);
				}
				statelessMeta(request, session, params);
				JsonNode result = this.calls
					.call(request, server, this.sessions.request(listing.method(), params),
							MemberCalls.headers(session, listing.method()))
					.result();
				if (result == null) {
					return new Fetched(items, false);
				}
				result.path(listing.array()).forEach(items::add);
				cursor = result.path("nextCursor").isString() ? result.path("nextCursor").asString() : null;
				if (cursor == null) {
					return new Fetched(items, true);
				}
			}
		}
		catch (IOException | ServletException ex) {
			return new Fetched(items, false);
		}
		return new Fetched(items, true);
	}

	/**
	 * A stateless request carries its revision and the client's capabilities in
	 * {@code params._meta} (2026-07-28): the member's list request carries the client's.
	 */
	private static void statelessMeta(VirtualRequest request, MemberSession session, ObjectNode params) {
		if (!McpRevisions.isStateless(session.protocolVersion())) {
			return;
		}
		JsonNode clientParams = request.message().params();
		JsonNode meta = (clientParams != null) ? clientParams.get("_meta") : null;
		if (meta != null && meta.isObject()) {
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
			// A copy: the fetched items are shared by every request their entry serves.
			into.add(object.deepCopy().put(listing.key(), exposed));
		}
	}

}
