package io.github.mcpgateway.session;

import java.io.IOException;
import java.time.Clock;
import java.util.Objects;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.McpRequestContext.Decision;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.McpStageFilter;
import io.github.mcpgateway.request.Refusals;
import io.github.mcpgateway.revocation.RevocationList;
import io.github.mcpgateway.revocation.RevocationSync;
import io.github.mcpgateway.session.SessionEvent.Type;

/**
 * The session and revocation stage, after identity and before grants.
 *
 * <p>
 * A revoked principal is refused with 403 {@code principal_revoked} on every request,
 * {@code initialize} included, so re-initializing cannot get around it. A request that
 * carries an {@code Mcp-Session-Id} must name a session this gateway saw created for the
 * same server and the same principal, and not revoked; otherwise it is answered 404
 * {@code session_not_found}, exactly as an unknown session (MCP: the client initializes
 * again), and nothing is sent upstream. The audit records the precise reason. The session
 * id an upstream returns on {@code initialize} is bound to the caller; {@code DELETE}
 * ends the binding once the upstream accepted it, and an upstream 404 on the session
 * drops it. Requests without a session id (stateless servers, MCP 2026-07-28) pass with
 * an empty session.
 */
public final class SessionAndRevocationFilter extends McpStageFilter {

	private final SessionRegistry registry;

	private final RevocationSync revocations;

	private final Refusals refusals;

	private final ApplicationEventPublisher events;

	private final Clock clock;

	SessionAndRevocationFilter(SessionRegistry registry, RevocationSync revocations, Refusals refusals,
			ApplicationEventPublisher events, Clock clock) {
		Assert.notNull(registry, "registry must not be null");
		Assert.notNull(revocations, "revocations must not be null");
		Assert.notNull(refusals, "refusals must not be null");
		Assert.notNull(events, "events must not be null");
		Assert.notNull(clock, "clock must not be null");
		this.registry = registry;
		this.revocations = revocations;
		this.refusals = refusals;
		this.events = events;
		this.clock = clock;
	}

	@Override
	protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain,
			McpRequestContext context) throws ServletException, IOException {
		McpPrincipal principal = context.principal();
		String serverKey = context.server().qualifiedName();
		RevocationList revoked = this.revocations.current();
		if (principal != null && revoked.revokesPrincipal(principal)) {
			refuse(request, response, GatewayErrors.PRINCIPAL_REVOKED, "principal_revoked");
			return;
		}
		String sessionId = context.sessionId();
		if (sessionId != null) {
			Type rejection = check(sessionId, serverKey, principal, revoked);
			if (rejection != null) {
				publish(rejection, sessionId, serverKey, principal);
				refuse(request, response, GatewayErrors.SESSION_NOT_FOUND,
						rejection.name().toLowerCase(java.util.Locale.ROOT));
				return;
			}
		}
		chain.doFilter(request, isInitialize(context) ? new SessionCapturingResponse(response, (created) -> {
			if (this.registry.bind(created, serverKey, principal)) {
				publish(Type.BOUND, created, serverKey, principal);
			}
		}) : response);
		if (sessionId != null) {
			afterUpstream(request.getMethod(), response.getStatus(), sessionId, serverKey);
		}
	}

	private @Nullable Type check(String sessionId, String serverKey, @Nullable McpPrincipal principal,
			RevocationList revoked) {
		if (revoked.revokesSession(sessionId)) {
			SessionBinding binding = this.registry.remove(sessionId);
			if (binding != null) {
				publish(Type.REVOKED, sessionId, binding.serverKey(), binding.principal());
			}
			return Type.REJECTED_REVOKED;
		}
		SessionBinding binding = this.registry.use(sessionId,
				(bound) -> bound.serverKey().equals(serverKey) && Objects.equals(bound.principal(), principal));
		if (binding == null) {
			return Type.REJECTED_UNKNOWN;
		}
		if (!binding.serverKey().equals(serverKey)) {
			return Type.REJECTED_SERVER;
		}
		if (!Objects.equals(binding.principal(), principal)) {
			return Type.REJECTED_PRINCIPAL;
		}
		return null;
	}

	private void afterUpstream(String method, int status, String sessionId, String serverKey) {
		boolean ended = "DELETE".equals(method) && status >= 200 && status < 300;
		if (ended || status == 404) {
			SessionBinding binding = this.registry.remove(sessionId);
			if (binding != null) {
				publish(ended ? Type.ENDED : Type.UPSTREAM_NOT_FOUND, sessionId, serverKey, binding.principal());
			}
		}
	}

	void publish(Type type, String sessionId, String serverKey, @Nullable McpPrincipal principal) {
		this.events.publishEvent(new SessionEvent(this.clock.instant(), type, sessionId, serverKey,
				(principal != null) ? principal.human() : null));
	}

	private static boolean isInitialize(McpRequestContext context) {
		JsonRpcMessage message = context.message();
		return message != null && JsonRpcMessage.INITIALIZE.equals(message.method());
	}

	private void refuse(HttpServletRequest request, HttpServletResponse response, GatewayError error, String reason)
			throws IOException {
		this.refusals.refuse(request, response, Decision.DENIED, error, reason);
	}

}
