package io.github.mcpgateway.upstreamauth;

import java.io.IOException;
import java.time.Duration;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.identity.VerifiedBearerToken;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.UpstreamAuth;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.McpRequestContext.Decision;
import io.github.mcpgateway.request.McpStageFilter;
import io.github.mcpgateway.request.Refusals;

/**
 * The upstream credentials stage: for an allowed request to a server with an
 * {@code upstream-auth} mode, obtains the token its upstream receives and attaches it to
 * the request ({@link UpstreamCredential}), or refuses before anything goes upstream.
 *
 * <p>
 * Refusals: the token endpoint said no, {@code 403 upstream_token_refused}; it could not
 * be reached or answered too slowly, {@code 503 upstream_token_unavailable} with
 * {@code Retry-After}. The request stays not dispatched, so the Idempotency-Key stage
 * releases a keyed call's entry and its retry runs once a token can be had.
 */
public final class UpstreamCredentialFilter extends McpStageFilter {

	private final UpstreamTokens tokens;

	private final Refusals refusals;

	private final UpstreamAuthMeters meters;

	private final GatewayError unavailable;

	UpstreamCredentialFilter(UpstreamTokens tokens, Refusals refusals, UpstreamAuthMeters meters, Duration retryAfter) {
		this.tokens = tokens;
		this.refusals = refusals;
		this.meters = meters;
		this.unavailable = GatewayErrors.UPSTREAM_TOKEN_UNAVAILABLE.withRetryAfter(retryAfter);
	}

	@Override
	protected boolean appliesTo(HttpServletRequest request, McpRequestContext context) {
		return context.decision() == Decision.ALLOWED
				&& context.server().upstreamAuth().mode() != UpstreamAuth.Mode.NONE;
	}

	@Override
	protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain,
			McpRequestContext context) throws ServletException, IOException {
		McpServerPolicy server = context.server();
		UpstreamAuth.Mode mode = server.upstreamAuth().mode();
		String subjectToken = (mode == UpstreamAuth.Mode.TOKEN_EXCHANGE) ? VerifiedBearerToken.of(request) : null;
		UpstreamTokens.Obtained obtained;
		try {
			if (mode == UpstreamAuth.Mode.TOKEN_EXCHANGE && subjectToken == null) {
				// The policy allows token-exchange only where callers present tokens.
				throw UpstreamTokenException.refused("no_subject_token");
			}
			obtained = this.tokens.obtain(server, subjectToken);
		}
		catch (UpstreamTokenException ex) {
			String outcome = ex.refused() ? "refused" : "unavailable";
			context.upstreamAuth(mode.tag(), outcome);
			this.meters.credential(mode, outcome);
			this.refusals.refuse(request, response, ex.refused() ? Decision.DENIED : Decision.REFUSED,
					ex.refused() ? GatewayErrors.UPSTREAM_TOKEN_REFUSED : this.unavailable, ex.reason());
			return;
		}
		String outcome = obtained.fetched() ? "fetched" : "cached";
		context.upstreamAuth(mode.tag(), outcome);
		this.meters.credential(mode, outcome);
		new UpstreamCredential(obtained.token(),
				Boolean.TRUE.equals(server.upstreamAuth().principalHeaders()) ? context.principal() : null)
			.attachTo(request);
		chain.doFilter(request, response);
	}

}
