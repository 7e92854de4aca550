package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.ServletException;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

/**
 * A client message that concerns the whole virtual server rather than one member
 * ({@code logging/setLevel}, a notification such as {@code notifications/cancelled} or
 * {@code notifications/roots/list_changed}), sent as it came to every member the gateway
 * holds a session with, each through its own pipeline; the members' replies are read and
 * dropped, and a member that fails does not keep the others from being told. A
 * cancellation names a request id only the member that received the request knows, so
 * telling every member reaches the right one and no other acts on it.
 */
record MemberBroadcast(MemberCalls calls) {

	/**
	 * Sends the client's message to each member with a session that declared
	 * {@code capability} ({@code null}: every one).
	 */
	void send(VirtualRequest request, VirtualSession session, @Nullable String capability)
			throws IOException, ServletException {
		String body = new String(request.body(), StandardCharsets.UTF_8);
		for (Member member : request.virtual().members()) {
			McpServerPolicy server = request.serverOf(member);
			MemberSession memberSession = session.members().get(member.prefix());
			if (server != null && memberSession != null && (capability == null || memberSession.offers(capability))) {
				this.calls.call(request, server, body,
						MemberCalls.headers(memberSession, String.valueOf(request.message().method())));
			}
		}
	}

}
