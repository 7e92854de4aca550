package io.github.mcpgateway.upstreamauth;

import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.oauth2.core.OAuth2AuthorizationException;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClientException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a token endpoint's failure becomes a refusal (403) or an outage (503). The cases a
 * real authorization server produces (400 with an OAuth error, a refused connection, a
 * read timeout) are also run end to end in {@code UpstreamAuthIntegrationTest}.
 */
class TokenEndpointClientTest {

	@Test
	void anOAuthErrorFromTheEndpointIsARefusalWithItsCode() {
		UpstreamTokenException failure = classify(new OAuth2AuthorizationException(new OAuth2Error("invalid_target")));

		assertThat(failure.refused()).isTrue();
		assertThat(failure.reason()).isEqualTo("invalid_target");
	}

	@Test
	void anUnauthorizedClientAnswerIsARefusalNamedInvalidClient() {
		UpstreamTokenException failure = classify(
				wrapped(HttpClientErrorException.create(HttpStatus.UNAUTHORIZED, "Unauthorized", HttpHeaders.EMPTY,
						"{\"error\":\"invalid_client\"}".getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)));

		assertThat(failure.refused()).isTrue();
		assertThat(failure.reason()).isEqualTo("invalid_client");
	}

	@Test
	void aServerErrorATimeoutOrAnUnreachableEndpointIsAnOutage() {
		UpstreamTokenException serverError = classify(wrapped(HttpServerErrorException
			.create(HttpStatus.SERVICE_UNAVAILABLE, "Unavailable", HttpHeaders.EMPTY, new byte[0], null)));
		UpstreamTokenException timeout = classify(
				wrapped(new ResourceAccessException("read", new HttpTimeoutException("request timed out"))));
		UpstreamTokenException unreachable = classify(
				wrapped(new ResourceAccessException("connect", new IOException("Connection refused"))));

		assertThat(serverError.refused()).isFalse();
		assertThat(serverError.reason()).isEqualTo("http_503");
		assertThat(timeout.refused()).isFalse();
		assertThat(timeout.reason()).isEqualTo("timeout");
		assertThat(unreachable.refused()).isFalse();
		assertThat(unreachable.reason()).isEqualTo("unreachable");
	}

	@Test
	void serverErrorCodesAndUnreadableAnswersAreOutages() {
		assertThat(classify(new OAuth2AuthorizationException(new OAuth2Error("temporarily_unavailable"))).refused())
			.isFalse();
		assertThat(classify(new OAuth2AuthorizationException(new OAuth2Error("server_error"))).refused()).isFalse();
		UpstreamTokenException unreadable = classify(wrapped(new RestClientException("no converter")));
		assertThat(unreadable.refused()).isFalse();
		assertThat(unreadable.reason()).isEqualTo("invalid_response");
	}

	private static OAuth2AuthorizationException wrapped(RestClientException cause) {
		return new OAuth2AuthorizationException(new OAuth2Error("invalid_token_response"), cause);
	}

	private static UpstreamTokenException classify(OAuth2AuthorizationException ex) {
		return TokenEndpointClient.classify(ex);
	}

}
