package io.github.mcpgateway.session;

import java.time.Clock;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.McpStage;
import io.github.mcpgateway.request.StageDecision;
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
 * drops it, both as soon as the upstream's status is known, before the client sees it.
 * Requests without a session id (stateless servers, MCP 2026-07-28) pass with an empty
 * session. Where bindings live is the {@link SessionStore}'s business; when it cannot
 * answer, a request that carries a session fails closed with 503
 * {@code session_store_unavailable} (nothing goes upstream), while requests without one,
 * {@code initialize} included, go on.
 */
public final class SessionStage implements McpStage {

	private final SessionStore store;

	private final RevocationSync revocations;

	private final ApplicationEventPublisher events;

	private final Clock clock;

	SessionStage(SessionStore store, RevocationSync revocations, ApplicationEventPublisher events, Clock clock) {
		Assert.notNull(store, "store must not be null");
		Assert.notNull(revocations, "revocations must not be null");
		Assert.notNull(events, "events must not be null");
		Assert.notNull(clock, "clock must not be null");
		this.store = store;
		this.revocations = revocations;
		this.events = events;
		this.clock = clock;
	}

	@Override
	public StageDecision decide(McpExchange exchange) {
		McpRequestContext context = exchange.context();
		McpPrincipal principal = context.principal();
		RevocationList revoked = this.revocations.current();
		if (principal != null && revoked.revokesPrincipal(principal)) {
			return StageDecision.refuse(GatewayErrors.PRINCIPAL_REVOKED, SessionRefusal.PRINCIPAL_REVOKED);
		}
		String sessionId = context.sessionId();
		boolean initialize = isInitialize(context);
		if (sessionId == null && !initialize) {
			return StageDecision.proceed();
		}
		SessionBinding caller = SessionBinding.of(context.server(), principal);
		String serverKey = caller.serverKey();
		if (sessionId != null) {
			Type rejection;
			try {
				rejection = check(sessionId, caller, revoked);
			}
			catch (SessionStoreException ex) {
				return StageDecision.refuse(GatewayErrors.SESSION_STORE_UNAVAILABLE,
						SessionRefusal.SESSION_STORE_UNAVAILABLE);
			}
			if (rejection != null) {
				publish(rejection, sessionId, serverKey, principal);
				return StageDecision.refuse(GatewayErrors.SESSION_NOT_FOUND, SessionRefusal.of(rejection));
			}
		}
		String method = exchange.request().getMethod();
		return StageDecision.wrap(null, new SessionCapturingResponse(exchange.response(), (created) -> {
			if (initialize && this.store.bind(created, caller)) {
				publish(Type.BOUND, created, serverKey, principal);
			}
		}, (status) -> {
			if (sessionId != null) {
				afterUpstream(method, status, sessionId, serverKey);
			}
		}));
	}

	private @Nullable Type check(String sessionId, SessionBinding caller, RevocationList revoked) {
		if (revoked.revokesSession(sessionId)) {
			SessionBinding binding = this.store.remove(sessionId);
			if (binding != null) {
				publish(Type.REVOKED, sessionId, binding.serverKey(), binding.principal());
			}
			return Type.REJECTED_REVOKED;
		}
		SessionBinding binding = this.store.use(sessionId, caller);
		if (binding == null) {
			return Type.REJECTED_UNKNOWN;
		}
		if (!binding.server().equals(caller.server())) {
			return Type.REJECTED_SERVER;
		}
		if (!binding.sameOwner(caller)) {
			return Type.REJECTED_PRINCIPAL;
		}
		return null;
	}

	private void afterUpstream(String method, int status, String sessionId, String serverKey) {
		boolean ended = "DELETE".equals(method) && status >= 200 && status < 300;
		if (ended || status == 404) {
			SessionBinding binding = this.store.remove(sessionId);
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

}
