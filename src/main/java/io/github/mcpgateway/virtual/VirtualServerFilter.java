package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.identity.McpAuthentication;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.routing.ServerLocator;

/**
 * Serves the virtual servers (ADR 0021): after identity, a request on a virtual server's
 * path goes to its {@link VirtualEndpoint} by HTTP method, which answers it and sends
 * what a member must decide through that member's own pipeline. Any other path goes on
 * down the chain untouched.
 *
 * <p>
 * Every request it serves gets one {@link VirtualAuditEvent}, handed to every
 * {@link VirtualAuditListener} when it is answered (or answering it threw): what it came
 * to is gathered meanwhile in its {@link VirtualOutcome}. The member requests it sends
 * have their own lines, from their own pipelines.
 */
public final class VirtualServerFilter extends OncePerRequestFilter implements DisposableBean {

	private final ServerLocator servers;

	private final VirtualEndpoint endpoint;

	private static final Log logger = LogFactory.getLog(VirtualServerFilter.class);

	private final VirtualStreams streams;

	private final List<VirtualAuditListener> auditListeners;

	private final GatewayClock clock;

	VirtualServerFilter(ServerLocator servers, VirtualEndpoint endpoint, VirtualStreams streams,
			List<VirtualAuditListener> auditListeners, GatewayClock clock) {
		this.servers = servers;
		this.endpoint = endpoint;
		this.streams = streams;
		this.auditListeners = List.copyOf(auditListeners);
		this.clock = clock;
	}

	/** Ends the relays of clients' streams still open at shutdown. */
	@Override
	public void destroy() {
		this.streams.close();
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		VirtualServerPolicy virtual = this.servers.virtualServerOf(request);
		Policy policy = this.servers.policyOf(request);
		if (virtual == null || policy == null) {
			chain.doFilter(request, response);
			return;
		}
		long start = this.clock.nanoTime();
		VirtualOutcome outcome = VirtualOutcome.open(request, virtual);
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		McpPrincipal principal = (authentication instanceof McpAuthentication caller) ? caller.getPrincipal() : null;
		boolean completed = false;
		try {
			serve(request, response, policy, virtual, principal);
			completed = true;
		}
		finally {
			audit(outcome.event(request, response, principal, completed, this.clock.instant(),
					Duration.ofNanos(this.clock.nanoTime() - start)));
		}
	}

	private void serve(HttpServletRequest request, HttpServletResponse response, Policy policy,
			VirtualServerPolicy virtual, @Nullable McpPrincipal principal) throws IOException, ServletException {
		if (principal == null) {
			this.endpoint.refuse(request, response, GatewayErrors.UNAUTHENTICATED, null);
			return;
		}
		switch (request.getMethod()) {
			case "POST" -> this.endpoint.post(request, response, policy, virtual, principal);
			case "DELETE" -> this.endpoint.end(request, response, virtual, principal);
			case "GET" -> this.endpoint.stream(request, response, policy, virtual, principal);
			default -> this.endpoint.notAllowed(request, response);
		}
	}

	private void audit(VirtualAuditEvent event) {
		for (VirtualAuditListener listener : this.auditListeners) {
			try {
				listener.onVirtualRequest(event);
			}
			catch (RuntimeException ex) {
				logger.warn("Audit listener " + listener.getClass().getName() + " failed: " + ex.getClass().getName());
			}
		}
	}

}
