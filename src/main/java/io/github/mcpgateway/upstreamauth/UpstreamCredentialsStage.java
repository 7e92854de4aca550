package io.github.mcpgateway.upstreamauth;

import java.time.Duration;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.identity.VerifiedBearerToken;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.UpstreamAuth;
import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.McpStage;
import io.github.mcpgateway.request.StageDecision;

/**
 * The upstream credentials stage: for a request to a server with an {@code upstream-auth}
 * mode, obtains the token its upstream receives and records it on the context
 * ({@link UpstreamCredential}, which the proxy sends), or refuses before anything goes
 * upstream.
 *
 * <p>
 * Refusals: the token endpoint said no, {@code 403 upstream_token_refused}; it could not
 * be reached or answered too slowly, {@code 503 upstream_token_unavailable} with
 * {@code Retry-After}. The request stays not dispatched, so the Idempotency-Key stage
 * releases a keyed call's entry and its retry runs once a token can be had.
 */
public final class UpstreamCredentialsStage implements McpStage {

	private final UpstreamTokens tokens;

	private final UpstreamAuthMeters meters;

	private final GatewayError unavailable;

	UpstreamCredentialsStage(UpstreamTokens tokens, UpstreamAuthMeters meters, Duration retryAfter) {
		this.tokens = tokens;
		this.meters = meters;
		this.unavailable = GatewayErrors.UPSTREAM_TOKEN_UNAVAILABLE.withRetryAfter(retryAfter);
	}

	@Override
	public boolean appliesTo(McpExchange exchange) {
		return exchange.context().server().upstreamAuth().mode() != UpstreamAuth.Mode.NONE;
	}

	@Override
	public StageDecision decide(McpExchange exchange) {
		McpRequestContext context = exchange.context();
		McpServerPolicy server = context.server();
		UpstreamAuth.Mode mode = server.upstreamAuth().mode();
		String subjectToken = (mode == UpstreamAuth.Mode.TOKEN_EXCHANGE) ? VerifiedBearerToken.of(exchange.request())
				: null;
		UpstreamTokens.Obtained obtained;
		try {
			if (mode == UpstreamAuth.Mode.TOKEN_EXCHANGE && subjectToken == null) {
				// The policy allows token-exchange only where callers present tokens.
				throw UpstreamTokenException.refused("no_subject_token");
			}
			obtained = this.tokens.obtain(server, subjectToken);
		}
		catch (UpstreamTokenException ex) {
			CredentialOutcome outcome = ex.refused() ? CredentialOutcome.REFUSED : CredentialOutcome.UNAVAILABLE;
			CredentialHandling.record(context, mode, outcome, null);
			this.meters.credential(mode, outcome);
			return StageDecision.refuse(ex.refused() ? GatewayErrors.UPSTREAM_TOKEN_REFUSED : this.unavailable,
					new TokenFailure(ex.reason()));
		}
		CredentialOutcome outcome = obtained.fetched() ? CredentialOutcome.FETCHED : CredentialOutcome.CACHED;
		CredentialHandling.record(context, mode, outcome, new UpstreamCredential(obtained.token(),
				Boolean.TRUE.equals(server.upstreamAuth().principalHeaders()) ? context.principal() : null));
		this.meters.credential(mode, outcome);
		return StageDecision.proceed();
	}

}
