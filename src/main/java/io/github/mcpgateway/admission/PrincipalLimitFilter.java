package io.github.mcpgateway.admission;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.util.Assert;
import org.springframework.web.filter.OncePerRequestFilter;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.identity.McpAuthentication;
import io.github.mcpgateway.routing.ServerLocator;

/**
 * The caps on what one human holds on MCP server paths, after Spring Security and before
 * the pipeline reads the body: listen streams (GET,
 * {@code gateway.admission.max-streams-per-principal}, 429 {@code too_many_streams}) and
 * other requests in flight ({@code gateway.admission.max-requests-per-principal}, 429
 * {@code too_many_requests}).
 *
 * <p>
 * The key is the human alone: the agent and team parts of a principal are often the
 * client's choice (a token's {@code azp}, {@code act.sub}), so one human cannot multiply
 * its share by naming more agents. A request without a verified principal (a
 * {@code delegated-header} server) is not counted here; the per-address cap still
 * applies. Paths that are no MCP server pass untouched. A request that takes a place of
 * its human gives back the place of its client address
 * ({@link ClientAddressLimitFilter}): from here on the human's caps bound it.
 */
public final class PrincipalLimitFilter extends OncePerRequestFilter {

	private static final String HELD = PrincipalLimitFilter.class.getName() + ".held";

	private final ServerLocator servers;

	private final InFlightLimiter requests;

	private final InFlightLimiter streams;

	private final GatewayErrorRenderer renderer;

	PrincipalLimitFilter(ServerLocator servers, InFlightLimiter requests, InFlightLimiter streams,
			GatewayErrorRenderer renderer) {
		Assert.notNull(servers, "servers must not be null");
		Assert.notNull(requests, "requests must not be null");
		Assert.notNull(streams, "streams must not be null");
		Assert.notNull(renderer, "renderer must not be null");
		this.servers = servers;
		this.requests = requests;
		this.streams = streams;
		this.renderer = renderer;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		if (!(authentication instanceof McpAuthentication mcp) || this.servers.serverOf(request) == null) {
			chain.doFilter(request, response);
			return;
		}
		boolean stream = "GET".equals(request.getMethod());
		InFlightLimiter limiter = stream ? this.streams : this.requests;
		String human = mcp.getPrincipal().human();
		if (!limiter.tryAcquire(human)) {
			GatewayError error = stream ? GatewayErrors.TOO_MANY_STREAMS : GatewayErrors.TOO_MANY_REQUESTS;
			GatewayErrorRenderer.closeIfBodyUnread(request, response);
			this.renderer.render(response, error, null);
			return;
		}
		if (request.getAttribute(ClientAddressLimitFilter.HELD) instanceof Held address) {
			address.release();
		}
		Held.run(limiter, human, HELD, request, response, chain);
	}

}
