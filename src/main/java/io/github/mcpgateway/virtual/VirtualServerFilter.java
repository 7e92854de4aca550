package io.github.mcpgateway.virtual;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.identity.McpAuthentication;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.routing.ServerLocator;

/**
 * Serves the virtual servers (ADR 0021): after identity, a request on a virtual server's
 * path goes to its {@link VirtualEndpoint} by HTTP method, which answers it and sends
 * what a member must decide through that member's own pipeline. Any other path goes on
 * down the chain untouched.
 */
public final class VirtualServerFilter extends OncePerRequestFilter implements DisposableBean {

	private final ServerLocator servers;

	private final VirtualEndpoint endpoint;

	private final VirtualStreams streams;

	VirtualServerFilter(ServerLocator servers, VirtualEndpoint endpoint, VirtualStreams streams) {
		this.servers = servers;
		this.endpoint = endpoint;
		this.streams = streams;
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
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		if (!(authentication instanceof McpAuthentication caller)) {
			this.endpoint.refuse(response, GatewayErrors.UNAUTHENTICATED, null);
			return;
		}
		switch (request.getMethod()) {
			case "POST" -> this.endpoint.post(request, response, policy, virtual, caller.getPrincipal());
			case "DELETE" -> this.endpoint.end(request, response, virtual, caller.getPrincipal());
			case "GET" -> this.endpoint.stream(request, response, policy, virtual, caller.getPrincipal());
			default -> this.endpoint.notAllowed(response);
		}
	}

}
