package io.github.mcpgateway.virtual;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * One client request to a virtual server, read and parsed once: the client's exchange,
 * the policy snapshot it was routed with, the caller and the message.
 */
record VirtualRequest(HttpServletRequest client, HttpServletResponse response, Policy policy,
		VirtualServerPolicy virtual, McpPrincipal principal, JsonRpcMessage message, byte[] body) {

	/**
	 * The member's server in this request's snapshot, {@code null} if it left the file.
	 */
	@Nullable McpServerPolicy serverOf(Member member) {
		return this.policy.named(member.server());
	}

	/**
	 * What stands for a session where a stateless request (2026-07-28) has none: its
	 * declared client capabilities, so that a member's list kept for one client of a
	 * principal ({@link MemberLists}) is reused only by clients that declared the same (a
	 * server may list tools by what the client can do).
	 */
	String statelessKey() {
		JsonNode params = this.message.params();
		JsonNode capabilities = (params != null)
				? params.path("_meta").path("io.modelcontextprotocol/clientCapabilities") : null;
		return "stateless " + ((capabilities != null) ? capabilities.toString() : "");
	}

}
