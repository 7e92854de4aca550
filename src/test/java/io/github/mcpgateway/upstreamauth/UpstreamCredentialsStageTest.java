package io.github.mcpgateway.upstreamauth;

import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.UpstreamAuth;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.StageDecision;
import io.github.mcpgateway.request.TestExchanges;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;

/**
 * The upstream credentials stage's decisions and what it records, with the token cache
 * ({@link UpstreamTokens}) mocked as the strategy it is.
 */
class UpstreamCredentialsStageTest {

	private static final String CALL = """
			{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}""";

	private static final Duration RETRY_AFTER = Duration.ofSeconds(7);

	private final McpPrincipal alice = new McpPrincipal("alice", null, "blue");

	private final UpstreamTokens tokens = mock(UpstreamTokens.class);

	private final UpstreamCredentialsStage stage = new UpstreamCredentialsStage(this.tokens,
			new UpstreamAuthMeters(new SimpleMeterRegistry()), RETRY_AFTER);

	@Test
	void appliesToWhenTheServerSendsNoCredentialThenFalse() {
		assertThat(this.stage.appliesTo(exchange(server("")))).isFalse();
		assertThat(this.stage.appliesTo(exchange(server("{ mode: client-credentials, client: reports }")))).isTrue();
	}

	@Test
	void decideWhenATokenIsFetchedThenGoesOnWithTheCredentialRecordedWithoutThePrincipal() {
		McpServerPolicy server = server("{ mode: client-credentials, client: reports }");
		given(this.tokens.obtain(eq(server), isNull())).willReturn(new UpstreamTokens.Obtained("token-1", true));
		McpExchange exchange = exchange(server);

		assertThat(this.stage.decide(exchange)).isSameAs(StageDecision.proceed());

		McpRequestContext context = exchange.context();
		assertThat(context.get(CredentialHandling.SLOT))
			.isEqualTo(new CredentialHandling(UpstreamAuth.Mode.CLIENT_CREDENTIALS, CredentialOutcome.FETCHED));
		assertThat(context.get(UpstreamCredential.SLOT)).isEqualTo(new UpstreamCredential("token-1", null));
	}

	@Test
	void decideWhenPrincipalHeadersAreOnThenTheCredentialCarriesThePrincipal() {
		McpServerPolicy server = server("{ mode: client-credentials, client: reports, principal-headers: true }");
		given(this.tokens.obtain(eq(server), isNull())).willReturn(new UpstreamTokens.Obtained("token-1", false));
		McpExchange exchange = exchange(server);

		this.stage.decide(exchange);

		assertThat(exchange.context().get(UpstreamCredential.SLOT))
			.isEqualTo(new UpstreamCredential("token-1", this.alice));
		assertThat(exchange.context().get(CredentialHandling.SLOT).outcome()).isEqualTo(CredentialOutcome.CACHED);
	}

	@Test
	void decideWhenTheTokenEndpointRefusesThenUpstreamTokenRefusedAndNoCredential() {
		McpServerPolicy server = server("{ mode: client-credentials, client: reports }");
		given(this.tokens.obtain(any(), any())).willThrow(UpstreamTokenException.refused("invalid_client"));
		McpExchange exchange = exchange(server);

		StageDecision decision = this.stage.decide(exchange);

		assertThat(decision)
			.isEqualTo(StageDecision.refuse(GatewayErrors.UPSTREAM_TOKEN_REFUSED, new TokenFailure("invalid_client")));
		assertThat(exchange.context().get(CredentialHandling.SLOT).outcome()).isEqualTo(CredentialOutcome.REFUSED);
		assertThat(exchange.context().get(UpstreamCredential.SLOT)).isNull();
	}

	@Test
	void decideWhenTheTokenEndpointCannotBeReachedThenUpstreamTokenUnavailableWithRetryAfter() {
		McpServerPolicy server = server("{ mode: client-credentials, client: reports }");
		given(this.tokens.obtain(any(), any())).willThrow(UpstreamTokenException.unavailable("unreachable"));
		McpExchange exchange = exchange(server);

		StageDecision decision = this.stage.decide(exchange);

		assertThat(decision).isEqualTo(StageDecision.refuse(
				GatewayErrors.UPSTREAM_TOKEN_UNAVAILABLE.withRetryAfter(RETRY_AFTER), new TokenFailure("unreachable")));
		assertThat(exchange.context().get(CredentialHandling.SLOT).outcome()).isEqualTo(CredentialOutcome.UNAVAILABLE);
	}

	@Test
	void decideWhenATokenExchangeHasNoVerifiedSubjectTokenThenRefusedWithoutAskingForAToken() {
		McpServerPolicy server = server("{ mode: token-exchange, client: exchange, audience: tickets-api }");

		StageDecision decision = this.stage.decide(exchange(server));

		assertThat(decision).isEqualTo(
				StageDecision.refuse(GatewayErrors.UPSTREAM_TOKEN_REFUSED, new TokenFailure("no_subject_token")));
		verifyNoInteractions(this.tokens);
	}

	private McpExchange exchange(McpServerPolicy server) {
		return TestExchanges.post(server, CALL).principal(this.alice).build();
	}

	private static McpServerPolicy server(String upstreamAuth) {
		return TestExchanges.server("""
				  - namespace: ua
				    name: reports
				    uid: uid-reports
				    upstream: http://upstream.example/mcp
				    path: /mcp/ua/reports
				""" + (upstreamAuth.isEmpty() ? "" : "    upstream-auth: " + upstreamAuth + "\n") + """
				    grants:
				      - tools: ["*"]
				""");
	}

}
