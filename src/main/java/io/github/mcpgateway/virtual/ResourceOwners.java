package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.ServletException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;

import org.springframework.web.util.UriTemplate;

import io.github.mcpgateway.policy.Grant;
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
		return owners(request, sessionId, session, List.of(uri)).get(uri);
	}

	/**
	 * The member that serves each of {@code uris} to this caller; a URI no member serves
	 * is not in the answer. Each member's lists are read once, however many URIs are
	 * asked about: a request naming many URIs (a {@code subscriptions/listen}) costs each
	 * member two lists at most, not two per URI.
	 */
	Map<String, Member> owners(VirtualRequest request, String sessionId, VirtualSession session,
			Collection<String> uris) throws IOException, ServletException {
		Set<String> wanted = new LinkedHashSet<>(uris);
		Map<String, Member> owners = new LinkedHashMap<>();
		Map<Member, MemberSession> serving = this.route.serving(request, sessionId, session, "resources");
		for (Listing listing : new Listing[] { Listing.RESOURCES, Listing.TEMPLATES }) {
			for (Map.Entry<Member, MemberSession> member : serving.entrySet()) {
				if (owners.size() == wanted.size()) {
					return owners;
				}
				List<String> names = names(request, sessionId, listing, member.getKey(), member.getValue());
				for (String uri : wanted) {
					if (!owners.containsKey(uri) && names.stream()
						.anyMatch((name) -> name.equals(uri) || (listing == Listing.TEMPLATES && matches(name, uri)))) {
						owners.put(uri, member.getKey());
					}
				}
			}
		}
		if (serving.size() == 1) {
			// The one member that serves resources takes a URI it does not list (one a
			// tool returned, one the client knows), as on its own path: a virtual server
			// with one such member answers as that member does.
			Member only = serving.keySet().iterator().next();
			wanted.stream()
				.filter((uri) -> !owners.containsKey(uri) && only.serves(Grant.Item.RESOURCE, uri))
				.forEach((uri) -> owners.put(uri, only));
		}
		return owners;
	}

	/** The URIs (or templates) of one member's list as this caller may use them. */
	private List<String> names(VirtualRequest request, String sessionId, Listing listing, Member member,
			MemberSession session) {
		ArrayNode items = this.json.createArrayNode();
		this.catalog.list(request, sessionId, listing, member, request.serverOf(member), session, items,
				new HashSet<>());
		List<String> names = new ArrayList<>();
		items.forEach((item) -> names.add(item.path(listing.key()).asString()));
		return names;
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
