package io.github.mcpgateway.virtual;

import java.io.IOException;

import jakarta.servlet.ServletException;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.virtual.MemberCalls.Reply;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

/**
 * Opens the gateway's session with a member, as the member's MCP client: an
 * {@code initialize} through the member's pipeline (so the member session is bound to the
 * caller like any other), then {@code notifications/initialized}. The member is offered
 * the client's own capabilities (sampling, elicitation, roots, tasks): a request the
 * member sends under them reaches the client with its id under the member's prefix, and
 * the client's answer goes back to the member ({@link MemberMessages}).
 */
record MemberSessions(MemberCalls calls, JsonMapper json, String clientName) {

	/**
	 * A new session with {@code member} in {@code protocolVersion} (or the version the
	 * member answers with) offering {@code capabilities} (JSON object text), or
	 * {@code null} when the member did not open one.
	 */
	@Nullable MemberSession open(VirtualRequest request, McpServerPolicy member, String protocolVersion, String capabilities)
			throws IOException, ServletException {
		ObjectNode params = this.json.createObjectNode();
		params.put("protocolVersion", protocolVersion);
		params.set("capabilities", object(capabilities, this.json));
		params.putObject("clientInfo").put("name", this.clientName).put("version", "1");
		Reply reply = this.calls.call(request, member, request("initialize", params), MemberCalls.headers(null));
		JsonNode result = reply.result();
		if (result == null || !result.path("protocolVersion").isString()) {
			return null;
		}
		MemberSession session = new MemberSession(reply.sessionId(), result.path("protocolVersion").asString(),
				capabilitiesOf(result));
		this.calls.call(request, member, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
				MemberCalls.headers(session));
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

	private String capabilitiesOf(JsonNode result) {
		JsonNode capabilities = result.get("capabilities");
		return (capabilities != null && capabilities.isObject()) ? this.json.writeValueAsString(capabilities) : "{}";
	}

	/** The JSON object {@code text} holds; an empty one for anything else. */
	static JsonNode object(String text, JsonMapper json) {
		try {
			JsonNode node = json.readTree(text);
			return (node != null && node.isObject()) ? node : json.createObjectNode();
		}
		catch (JacksonException ex) {
			return json.createObjectNode();
		}
	}

}
