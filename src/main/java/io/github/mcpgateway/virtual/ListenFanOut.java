package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.ServletException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

/**
 * A 2026-07-28 {@code subscriptions/listen} on a virtual server: every member is asked to
 * listen (statelessly, with the client's id, so its notifications carry the client's
 * subscription id) for the list changes the client opted in to, and each for the resource
 * URIs it owns ({@link ResourceOwners}); a URI no member owns is left out. The client is
 * acknowledged once, with what the virtual server listens for, and its stream carries the
 * members' notifications merged ({@link VirtualStreams#listen}). A member that does not
 * speak the revision refuses its listen and adds nothing.
 */
record ListenFanOut(ResourceOwners owners, VirtualStreams streams, JsonMapper json) {

	private static final String LISTEN = "subscriptions/listen";

	private static final String SUBSCRIPTIONS = "resourceSubscriptions";

	void listen(VirtualRequest request, VirtualSession session) throws IOException, ServletException {
		JsonNode params = (request.message().params() != null) ? request.message().params()
				: this.json.createObjectNode();
		ObjectNode accepted = (params.get("notifications") instanceof ObjectNode filter) ? filter.deepCopy()
				: this.json.createObjectNode();
		Map<Member, List<String>> owned = owned(request, session, accepted);
		Map<Member, MemberRequest> listens = new LinkedHashMap<>();
		for (Member member : request.virtual().members()) {
			McpServerPolicy server = request.serverOf(member);
			if (server != null) {
				byte[] body = body(request, params, accepted, owned.get(member));
				listens.put(member,
						MemberRequest.post(request.client(), server.path(), body, headers(session, member)));
			}
		}
		this.streams.listen(request.response(), request.policy(), listens, acknowledgement(request, accepted));
	}

	/**
	 * The URIs the client subscribes to, by the member that owns each; {@code accepted}
	 * keeps only those.
	 */
	private Map<Member, List<String>> owned(VirtualRequest request, VirtualSession session, ObjectNode accepted)
			throws IOException, ServletException {
		Map<Member, List<String>> owned = new LinkedHashMap<>();
		if (!(accepted.get(SUBSCRIPTIONS) instanceof ArrayNode uris)) {
			return owned;
		}
		List<String> asked = new ArrayList<>();
		uris.forEach((uri) -> {
			if (uri.isString()) {
				asked.add(uri.asString());
			}
		});
		Map<String, Member> owners = this.owners.owners(request, request.statelessKey(), session, asked);
		ArrayNode kept = this.json.createArrayNode();
		owners.forEach((uri, owner) -> {
			owned.computeIfAbsent(owner, (member) -> new ArrayList<>()).add(uri);
			kept.add(uri);
		});
		accepted.set(SUBSCRIPTIONS, kept);
		return owned;
	}

	private byte[] body(VirtualRequest request, JsonNode params, ObjectNode accepted, @Nullable List<String> uris) {
		ObjectNode memberParams = (params instanceof ObjectNode object) ? object.deepCopy()
				: this.json.createObjectNode();
		ObjectNode filter = accepted.deepCopy();
		if (filter.has(SUBSCRIPTIONS)) {
			ArrayNode own = filter.putArray(SUBSCRIPTIONS);
			if (uris != null) {
				uris.forEach(own::add);
			}
		}
		memberParams.set("notifications", filter);
		ObjectNode body = this.json.createObjectNode().put("jsonrpc", "2.0");
		body.set("id", request.message().id());
		body.put("method", LISTEN).set("params", memberParams);
		return this.json.writeValueAsBytes(body);
	}

	private static Map<String, @Nullable String> headers(VirtualSession session, Member member) {
		MemberSession stateless = session.members().get(member.prefix());
		return MemberCalls.headers(stateless, LISTEN);
	}

	/** The virtual server's one acknowledgement, as an event. */
	private byte[] acknowledgement(VirtualRequest request, ObjectNode accepted) {
		ObjectNode notification = this.json.createObjectNode().put("jsonrpc", "2.0");
		notification.put("method", "notifications/subscriptions/acknowledged");
		ObjectNode ackParams = notification.putObject("params");
		ackParams.set("notifications", accepted);
		ackParams.putObject("_meta").set("io.modelcontextprotocol/subscriptionId", request.message().id());
		return ("data: " + this.json.writeValueAsString(notification) + "\n\n").getBytes(StandardCharsets.UTF_8);
	}

}
