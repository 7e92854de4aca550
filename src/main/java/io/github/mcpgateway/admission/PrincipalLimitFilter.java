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
import io.github.mcpgateway.transport.McpHeaders;

/**
 * The caps on what one human holds on MCP server paths, after Spring Security and before
 * the pipeline reads the body: listen streams (GET and 2026-07-28
 * {@code subscriptions/listen}, {@code gateway.admission.max-streams-per-principal}, 429
 * {@code too_many_streams}) and other requests in flight
 * ({@code gateway.admission.max-requests-per-principal}, 429 {@code too_many_requests});
 * then, for a stream, the replica's own cap on streams of all callers
 * ({@code gateway.admission.max-streams}, 503 {@code stream_capacity}): each stream holds
 * a request thread for as long as it is open, so however many humans hold streams, the
 * threads past this cap stay free for calls.
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

	private static final String HELD_ALL = PrincipalLimitFilter.class.getName() + ".heldAll";

	/** The one key of the replica-wide stream cap. */
	private static final String ALL = "*";

	private static final String LISTEN = "subscriptions/listen";

	private final ServerLocator servers;

	private final PrincipalCaps caps;

	private final GatewayErrorRenderer renderer;

	PrincipalLimitFilter(ServerLocator servers, PrincipalCaps caps, GatewayErrorRenderer renderer) {
		Assert.notNull(servers, "servers must not be null");
		Assert.notNull(caps, "caps must not be null");
		Assert.notNull(renderer, "renderer must not be null");
		this.servers = servers;
		this.caps = caps;
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
		boolean stream = isStream(request);
		InFlightLimiter limiter = stream ? this.caps.streams() : this.caps.requests();
		String human = mcp.getPrincipal().human();
		if (!limiter.tryAcquire(human)) {
			refuse(request, response, stream ? GatewayErrors.TOO_MANY_STREAMS : GatewayErrors.TOO_MANY_REQUESTS);
			return;
		}
		if (request.getAttribute(ClientAddressLimitFilter.HELD) instanceof Held address) {
			address.release();
		}
		if (stream) {
			Held.run(limiter, human, HELD, request, response, (streamRequest, streamResponse) -> {
				if (!this.caps.allStreams().tryAcquire(ALL)) {
					refuse((HttpServletRequest) streamRequest, (HttpServletResponse) streamResponse,
							GatewayErrors.STREAM_CAPACITY);
					return;
				}
				Held.run(this.caps.allStreams(), ALL, HELD_ALL, (HttpServletRequest) streamRequest,
						(HttpServletResponse) streamResponse, chain);
			});
			return;
		}
		Held.run(limiter, human, HELD, request, response, chain);
	}

	/**
	 * A listen stream: a GET, or a 2026-07-28 {@code subscriptions/listen} POST, told by
	 * its {@code Mcp-Method} header before the body is read (the request stage refuses a
	 * header that disagrees with the body, so a caller cannot move a call between the
	 * caps).
	 */
	private static boolean isStream(HttpServletRequest request) {
		return "GET".equals(request.getMethod()) || LISTEN.equals(request.getHeader(McpHeaders.METHOD));
	}

	private void refuse(HttpServletRequest request, HttpServletResponse response, GatewayError error)
			throws IOException {
		GatewayErrorRenderer.closeIfBodyUnread(request, response);
		this.renderer.render(response, error, null);
	}

}
