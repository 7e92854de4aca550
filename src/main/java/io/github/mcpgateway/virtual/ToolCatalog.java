package io.github.mcpgateway.virtual;

import java.io.IOException;

import jakarta.servlet.ServletException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.virtual.MemberCalls.Reply;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

/**
 * A virtual server's {@code tools/list}: each member's list as the member's pipeline
 * filtered it for the caller (its grants and {@code except}), then only the tools the
 * member's selection names and the virtual server's own grants allow, each under its
 * exposed name. Members are asked in order, every page of each (at most
 * {@value #MAX_PAGES}); a member that does not answer leaves its tools out and the others
 * in.
 */
record ToolCatalog(MemberCalls calls, MemberSessions sessions, GrantEvaluator grants, JsonMapper json) {

	static final int MAX_PAGES = 20;

	/** The member's tools the caller may see, exposed, added to {@code into}. */
	void list(VirtualRequest request, Member member, McpServerPolicy server, MemberSession session, ArrayNode into)
			throws IOException, ServletException {
		String cursor = null;
		for (int page = 0; page < MAX_PAGES; page++) {
			ObjectNode params = this.json.createObjectNode();
			if (cursor != null) {
				params.put("cursor", cursor);
			}
			Reply reply = this.calls.call(request.client(), request.response(), request.policy(), server,
					this.sessions.request("tools/list", params), MemberCalls.headers(session));
			JsonNode result = reply.result();
			if (result == null) {
				return;
			}
			for (JsonNode tool : result.path("tools")) {
				expose(tool, member, request, into);
			}
			cursor = result.path("nextCursor").isString() ? result.path("nextCursor").asString() : null;
			if (cursor == null) {
				return;
			}
		}
	}

	private void expose(JsonNode tool, Member member, VirtualRequest request, ArrayNode into) {
		if (!(tool instanceof ObjectNode item) || !tool.path("name").isString()) {
			return;
		}
		String local = tool.path("name").asString();
		String exposed = member.expose(local);
		if (member.serves(local) && this.grants.mayCallTool(request.virtual(), request.principal(), exposed)) {
			into.add(item.deepCopy().put("name", exposed));
		}
	}

}
