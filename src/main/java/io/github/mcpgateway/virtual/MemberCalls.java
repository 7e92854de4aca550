package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.proxy.UpstreamDispatch;
import io.github.mcpgateway.request.McpPipelineFilter;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.routing.ServerLocator;
import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.transport.McpRevisions;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

/**
 * Requests to a virtual server's members, each run through the member's own pipeline
 * (session, grants, conditions, limits, Idempotency-Key, tasks, upstream credentials,
 * circuit breaker and bulkhead) and then the proxy, exactly as the same request sent to
 * the member's path would be: a virtual server adds no way around a member's rules, and
 * the member's audit line and meters record the call under the member, with the virtual
 * server it came through ({@link VirtualOrigin}).
 */
record MemberCalls(McpPipelineFilter pipeline, UpstreamDispatch upstream, JsonMapper json, int maxReplyBytes) {

	private static final String ACCEPT = MediaType.APPLICATION_JSON_VALUE + ", " + MediaType.TEXT_EVENT_STREAM_VALUE;

	/**
	 * The headers a member request carries in place of the client's: the member's session
	 * and protocol version (none before its {@code initialize}), JSON in, JSON or an
	 * event stream out.
	 */
	static Map<String, @Nullable String> headers(@Nullable MemberSession session) {
		Map<String, @Nullable String> headers = new LinkedHashMap<>();
		headers.put(McpHeaders.SESSION_ID, (session != null) ? session.sessionId() : null);
		headers.put(McpHeaders.PROTOCOL_VERSION, (session != null) ? session.protocolVersion() : null);
		headers.put(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON_VALUE);
		headers.put(HttpHeaders.ACCEPT, ACCEPT);
		// Read message by message, so asked for without a content coding, as the task
		// stage asks (IdentityEncodingRequest).
		headers.put(HttpHeaders.ACCEPT_ENCODING, null);
		// The client's routing headers and key name the client's request, not this one.
		headers.put(McpHeaders.METHOD, null);
		headers.put(McpHeaders.NAME, null);
		headers.put(McpHeaders.IDEMPOTENCY_KEY, null);
		return headers;
	}

	/**
	 * {@link #headers(MemberSession)} for a request with {@code method}: a stateless one
	 * (2026-07-28) names its method in a header too.
	 */
	static Map<String, @Nullable String> headers(MemberSession session, String method) {
		Map<String, @Nullable String> headers = headers(session);
		if (McpRevisions.isStateless(session.protocolVersion())) {
			headers.put(McpHeaders.METHOD, method);
		}
		return headers;
	}

	/**
	 * Runs {@code request} through {@code member}'s pipeline, its reply to
	 * {@code target}; the member's audit line names the virtual server the client's
	 * request is to.
	 */
	void send(MemberRequest request, Policy policy, McpServerPolicy member, HttpServletResponse target)
			throws IOException, ServletException {
		ServerLocator.pin(request, policy, member);
		VirtualOutcome outcome = VirtualOutcome.find(request.client());
		if (outcome != null) {
			McpRequestContext.attachOrigin(request, outcome.origin(member));
		}
		this.pipeline.doFilter(request, target, (allowed, response) -> this.upstream
			.forward((HttpServletRequest) allowed, (HttpServletResponse) response));
	}

	/**
	 * Sends {@code body} to {@code member} and reads its reply, which does not reach the
	 * client.
	 */
	Reply call(VirtualRequest client, McpServerPolicy member, String body, Map<String, @Nullable String> headers)
			throws IOException, ServletException {
		MemberRequest request = MemberRequest.post(client.client(), member.path(),
				body.getBytes(StandardCharsets.UTF_8), headers);
		CapturedResponse captured = new CapturedResponse(client.response(), this.maxReplyBytes);
		send(request, client.policy(), member, captured);
		return new Reply(captured.getStatus(), captured.getHeader(McpHeaders.SESSION_ID),
				captured.overflowed() ? null : message(captured));
	}

	private @Nullable JsonNode message(CapturedResponse captured) {
		byte[] body = captured.body();
		String contentType = captured.getContentType();
		try {
			if (contentType != null && contentType.startsWith(MediaType.TEXT_EVENT_STREAM_VALUE)) {
				return EventStreamReplies.lastResponse(new String(body, StandardCharsets.UTF_8), this.json);
			}
			return (body.length > 0) ? this.json.readTree(body) : null;
		}
		catch (JacksonException ex) {
			return null;
		}
	}

	/**
	 * A member's reply as the gateway read it.
	 *
	 * @param status its HTTP status
	 * @param sessionId its {@code Mcp-Session-Id}, if it sent one
	 * @param message its JSON-RPC response, {@code null} when it sent none that could be
	 * read
	 */
	record Reply(int status, @Nullable String sessionId, @Nullable JsonNode message) {

		/** The response's {@code result}, {@code null} on an error or no response. */
		@Nullable JsonNode result() {
			if (this.status / 100 != 2 || this.message == null) {
				return null;
			}
			JsonNode result = this.message.get("result");
			return (result != null && result.isObject()) ? result : null;
		}

	}

}
