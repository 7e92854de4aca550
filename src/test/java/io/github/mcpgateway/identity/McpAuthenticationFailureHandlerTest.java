package io.github.mcpgateway.identity;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.authentication.AuthenticationServiceException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.BearerTokenErrors;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.policy.LivePolicy;
import io.github.mcpgateway.routing.ServerLocator;

import static org.assertj.core.api.Assertions.assertThat;

class McpAuthenticationFailureHandlerTest {

	private final GatewayErrorRenderer renderer = new GatewayErrorRenderer(JsonMapper.builder().build());

	private final ServerLocator servers = new ServerLocator(new LivePolicy());

	private final McpAuthenticationFailureHandler handler = new McpAuthenticationFailureHandler(
			new McpAuthenticationEntryPoint(this.servers, new ResourceMetadataLocator(this.servers, null),
					this.renderer),
			this.renderer);

	@Test
	void failureWhenKeysCannotBeFetchedThenServiceUnavailableNotServerError() throws Exception {
		MockHttpServletResponse response = new MockHttpServletResponse();

		this.handler.onAuthenticationFailure(new MockHttpServletRequest("POST", "/mcp/x"), response,
				new AuthenticationServiceException("JWKS unreachable"));

		assertThat(response.getStatus()).isEqualTo(503);
		assertThat(response.getHeader("Retry-After")).isEqualTo("5");
		assertThat(response.getContentAsString()).contains("\"code\":\"identity_unavailable\"");
	}

	@Test
	void failureWhenTokenRejectedThenUnauthorizedWithChallenge() throws Exception {
		MockHttpServletResponse response = new MockHttpServletResponse();

		this.handler.onAuthenticationFailure(new MockHttpServletRequest("POST", "/mcp/x"), response,
				new OAuth2AuthenticationException(BearerTokenErrors.invalidToken("signature of kid-4711 failed")));

		assertThat(response.getStatus()).isEqualTo(401);
		assertThat(response.getHeader("WWW-Authenticate")).startsWith("Bearer error=\"invalid_token\"");
		assertThat(response.getContentAsString()).doesNotContain("kid-4711");
	}

}
