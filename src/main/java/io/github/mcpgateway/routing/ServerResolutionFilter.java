package io.github.mcpgateway.routing;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.util.Assert;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The first step of the pipeline, ahead of Spring Security: pins the request's server
 * from the policy snapshot live now ({@link ServerLocator}), so that every stage after it
 * decides the request against that one snapshot.
 */
public final class ServerResolutionFilter extends OncePerRequestFilter {

	private final ServerLocator servers;

	public ServerResolutionFilter(ServerLocator servers) {
		Assert.notNull(servers, "servers must not be null");
		this.servers = servers;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		this.servers.serverOf(request);
		chain.doFilter(request, response);
	}

}
