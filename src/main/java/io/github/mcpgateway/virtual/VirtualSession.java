package io.github.mcpgateway.virtual;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.jsonrpc.JsonMembers;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.transport.McpRevisions;

/**
 * A client's session with a virtual server: who opened it, on which virtual server, the
 * protocol version agreed with the client, and the session the gateway holds with each
 * member it reached, by prefix. Immutable; a member (re)initialised is a new value.
 *
 * @param virtualUid the virtual server's UID
 * @param principal who opened it; only they may use it
 * @param protocolVersion the version agreed with the client
 * @param capabilities the client's capabilities as its {@code initialize} declared them
 * (JSON object text), offered to each member in its name, so that a member's sampling,
 * elicitation or {@code roots/list} request can reach the client
 * @param members the member sessions by prefix; a member missing here has none yet (it
 * failed to initialise, or joined later) and is initialised when first needed
 */
record VirtualSession(String virtualUid, McpPrincipal principal, String protocolVersion, String capabilities,
		Map<String, MemberSession> members) {

	/** Every server capability a list or a routed request needs. */
	private static final String EVERY = "{\"tools\":{},\"prompts\":{},\"resources\":{},\"completions\":{},"
			+ "\"logging\":{},\"tasks\":{}}";

	VirtualSession {
		members = Collections.unmodifiableMap(new LinkedHashMap<>(members));
	}

	/**
	 * What a stateless request (2026-07-28) is served with: no session, each member
	 * spoken to statelessly in the client's revision, every capability assumed (a member
	 * that lacks one answers so, and adds nothing to a list).
	 */
	static VirtualSession stateless(String virtualUid, McpPrincipal principal, List<String> prefixes) {
		Map<String, MemberSession> members = new LinkedHashMap<>();
		prefixes.forEach((prefix) -> members.put(prefix, new MemberSession(null, McpRevisions.STATELESS, EVERY)));
		return new VirtualSession(virtualUid, principal, McpRevisions.STATELESS, "{}", members);
	}

	/** Whether it is {@code principal}'s on the virtual server {@code virtualUid}. */
	boolean ownedBy(String virtualUid, McpPrincipal principal) {
		return this.virtualUid.equals(virtualUid) && this.principal.equals(principal);
	}

	/** This session with {@code prefix}'s member session set to {@code session}. */
	VirtualSession with(String prefix, MemberSession session) {
		Map<String, MemberSession> updated = new LinkedHashMap<>(this.members);
		updated.put(prefix, session);
		return new VirtualSession(this.virtualUid, this.principal, this.protocolVersion, this.capabilities, updated);
	}

	/**
	 * The gateway's session with one member.
	 *
	 * @param sessionId the member's {@code Mcp-Session-Id}, {@code null} for a member
	 * that runs without sessions
	 * @param protocolVersion the version the member agreed to
	 * @param capabilities the member's capabilities as its {@code initialize} answered
	 * them (JSON object text)
	 */
	record MemberSession(@Nullable String sessionId, String protocolVersion, String capabilities) {

		/** Whether the member declared the server capability {@code name}. */
		boolean offers(String name) {
			return JsonMembers.has(this.capabilities.getBytes(StandardCharsets.UTF_8), name);
		}

	}

}
