package io.github.mcpgateway.virtual;

import java.io.IOException;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.virtual.MemberCalls.Reply;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

/**
 * Opens the gateway's session with a member, as the member's MCP client: an
 * {@code initialize} through the member's pipeline (so the member session is bound to the
 * caller like any other), then {@code notifications/initialized}. The gateway offers the
 * member no client capabilities in this increment (no sampling, elicitation or roots),
 * because it does not yet relay a member's requests to the client.
 */
record MemberSessions(MemberCalls calls, JsonMapper json, String clientName) {

	/**
	 * A new session with {@code member} in {@code protocolVersion} (or the version the
	 * member answers with), or {@code null} when the member did not open one.
	 */
	@Nullable MemberSession open(HttpServletRequest client, HttpServletResponse response, Policy policy, McpServerPolicy member,
			String protocolVersion) throws IOException, ServletException {
		ObjectNode params = this.json.createObjectNode();
		params.put("protocolVersion", protocolVersion);
		params.putObject("capabilities");
		params.putObject("clientInfo").put("name", this.clientName).put("version", "1");
		Reply reply = this.calls.call(client, response, policy, member, request("initialize", params),
				MemberCalls.headers(null));
		JsonNode result = reply.result();
		if (result == null || !result.path("protocolVersion").isString()) {
			return null;
		}
		MemberSession session = new MemberSession(reply.sessionId(), result.path("protocolVersion").asString());
		this.calls.call(client, response, policy, member,
				"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", MemberCalls.headers(session));
		return session;
	}

	/** A JSON-RPC request of the gateway's own to a member. */
	String request(String method, JsonNode params) {
		ObjectNode request = this.json.createObjectNode();
		request.put("jsonrpc", "2.0");
		request.put("id", "mcp-gateway");
		request.put("method", method);
		request.set("params", params);
		return this.json.writeValueAsString(request);
	}

}
