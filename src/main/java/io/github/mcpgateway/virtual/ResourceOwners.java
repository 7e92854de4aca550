package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.util.HashSet;

import jakarta.servlet.ServletException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;

import org.springframework.web.util.UriTemplate;

import io.github.mcpgateway.policy.Grant;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

/**
 * Which member a resource URI belongs to. Resource URIs are kept as the members wrote
 * them (a URI is an address other content links to: an MCP App's {@code ui://} page, a
 * {@code file://} path), so a URI is routed to the member that lists it: the first
 * member, in the virtual server's order, whose {@code resources/list} (as filtered for
 * the caller) holds it, else the first whose {@code resources/templates/list} holds a
 * template it matches (or, for a completion, that template itself). A later member that
 * lists the same URI never receives it, and its entry is left out of the merged list
 * ({@link MemberCatalog}), so what the list shows is what a read reaches.
 */
record ResourceOwners(MemberCatalog catalog, MemberRoute route, JsonMapper json) {

	/**
	 * The member that serves {@code uri} to this caller, or {@code null}: none lists it
	 * or a template it matches.
	 */
	@Nullable Member ownerOf(VirtualRequest request, String sessionId, VirtualSession session, String uri)
			throws IOException, ServletException {
		Member listed = first(request, sessionId, session, Listing.RESOURCES, uri, false);
		Member owner = (listed != null) ? listed : first(request, sessionId, session, Listing.TEMPLATES, uri, true);
		return (owner != null) ? owner : only(request, sessionId, session, uri);
	}

	/**
	 * The one member that serves resources at all, when exactly one does and its
	 * selection takes {@code uri}: a URI it does not list (one a tool returned, one the
	 * client knows) reaches it as it would on the member's own path, and a virtual server
	 * with one such member answers as that member does.
	 */
	private @Nullable Member only(VirtualRequest request, String sessionId, VirtualSession session, String uri)
			throws IOException, ServletException {
		Member only = null;
		for (Member member : request.virtual().members()) {
			McpServerPolicy server = request.serverOf(member);
			MemberSession memberSession = (server != null)
					? this.route.memberSession(request, sessionId, session, member, server) : null;
			if (memberSession != null && memberSession.offers("resources")) {
				if (only != null) {
					return null;
				}
				only = member;
			}
		}
		return (only != null && only.serves(Grant.Item.RESOURCE, uri)) ? only : null;
	}

	private @Nullable Member first(VirtualRequest request, String sessionId, VirtualSession session, Listing listing,
			String uri, boolean template) throws IOException, ServletException {
		for (Member member : request.virtual().members()) {
			McpServerPolicy server = request.serverOf(member);
			MemberSession memberSession = (server != null)
					? this.route.memberSession(request, sessionId, session, member, server) : null;
			if (memberSession == null || !memberSession.offers("resources")) {
				continue;
			}
			ArrayNode items = this.json.createArrayNode();
			this.catalog.list(request, sessionId, listing, member, server, memberSession, items, new HashSet<>());
			for (JsonNode item : items) {
				String name = item.path(listing.key()).asString();
				if (name.equals(uri) || (template && matches(name, uri))) {
					return member;
				}
			}
		}
		return null;
	}

	/** Whether {@code uri} is an expansion of the RFC 6570 {@code template}. */
	private static boolean matches(String template, String uri) {
		try {
			return new UriTemplate(template).matches(uri);
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

}
