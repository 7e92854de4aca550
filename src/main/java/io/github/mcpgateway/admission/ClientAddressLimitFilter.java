package io.github.mcpgateway.admission;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.util.Assert;
import org.springframework.web.filter.OncePerRequestFilter;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;

/**
 * The cap on requests in flight from one client address
 * ({@code gateway.admission.max-requests-per-address}), ahead of routing and Spring
 * Security, on every path: before any token is checked, one address cannot take more than
 * its share of the request threads. Past the cap the request is answered 429
 * {@code too_many_requests} at once, without reading its body (Tomcat then closes the
 * connection: {@code server.tomcat.max-swallow-size} is 0).
 *
 * <p>
 * The place is held until the request's identity is known: once the request holds a place
 * of its human ({@link PrincipalLimitFilter}), the address's place is given back and the
 * human's caps bound it from then on. So the address cap bounds what a client holds
 * before (or without) a verified principal: requests being authenticated, refused ones,
 * Actuator and {@code delegated-header} servers' requests. A long listen stream of a
 * verified caller never counts against its address, and callers behind one ingress do not
 * share one budget of open streams.
 *
 * <p>
 * The address is {@link HttpServletRequest#getRemoteAddr()}, an IPv6 one counted by its
 * /64 prefix ({@link ClientAddressKey}): behind a proxy or load balancer, every caller
 * shares the proxy's address unless {@code server.forward-headers-strategy} is set so
 * that Tomcat reads the client's from the proxy's headers.
 */
public final class ClientAddressLimitFilter extends OncePerRequestFilter {

	/** The request attribute holding the address's place ({@link Held}). */
	static final String HELD = ClientAddressLimitFilter.class.getName() + ".held";

	private final InFlightLimiter limiter;

	private final GatewayErrorRenderer renderer;

	ClientAddressLimitFilter(InFlightLimiter limiter, GatewayErrorRenderer renderer) {
		Assert.notNull(limiter, "limiter must not be null");
		Assert.notNull(renderer, "renderer must not be null");
		this.limiter = limiter;
		this.renderer = renderer;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String address = ClientAddressKey.of(request.getRemoteAddr());
		if (!this.limiter.tryAcquire(address)) {
			GatewayErrorRenderer.closeIfBodyUnread(request, response);
			if (GatewayErrorRenderer.isActuatorPath(request.getRequestURI())) {
				this.renderer.renderProblem(response, GatewayErrors.TOO_MANY_REQUESTS);
			}
			else {
				this.renderer.render(response, GatewayErrors.TOO_MANY_REQUESTS, null);
			}
			return;
		}
		Held.run(this.limiter, address, HELD, request, response, chain);
	}

}
