package io.github.mcpgateway.virtual;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

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

}
