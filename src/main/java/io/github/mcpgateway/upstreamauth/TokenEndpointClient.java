package io.github.mcpgateway.upstreamauth;

import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import org.jspecify.annotations.Nullable;

import org.springframework.core.convert.converter.Converter;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.converter.FormHttpMessageConverter;
import org.springframework.security.oauth2.client.endpoint.AbstractOAuth2AuthorizationGrantRequest;
import org.springframework.security.oauth2.client.endpoint.NimbusJwtClientAuthenticationParametersConverter;
import org.springframework.security.oauth2.client.endpoint.OAuth2ClientCredentialsGrantRequest;
import org.springframework.security.oauth2.client.endpoint.RestClientClientCredentialsTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.RestClientTokenExchangeTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.TokenExchangeGrantRequest;
import org.springframework.security.oauth2.client.http.OAuth2ErrorResponseErrorHandler;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2AuthorizationException;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.core.http.converter.OAuth2AccessTokenResponseHttpMessageConverter;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import io.github.mcpgateway.policy.UpstreamAuth;

/**
 * Asks a token endpoint for one token, with Spring Security's OAuth2 client (the
 * RestClient token response clients of the token-exchange and client-credentials grants),
 * and turns every failure into an {@link UpstreamTokenException}. No caching here:
 * {@link UpstreamTokens} does that.
 *
 * <p>
 * What Spring does not do and this class adds: the per-server {@code audience},
 * {@code resource} and {@code scope} parameters (the grant requests carry none), the
 * connect and read timeouts (Spring's default client has none), {@code private_key_jwt}
 * and {@code client_secret_jwt} client authentication from configured keys, and the
 * subject token sent as {@code urn:ietf:params:oauth:token-type:access_token}, the type
 * every server that supports RFC 8693 accepts.
 */
final class TokenEndpointClient {

	private final RestClientTokenExchangeTokenResponseClient exchange = new RestClientTokenExchangeTokenResponseClient();

	private final RestClientClientCredentialsTokenResponseClient clientCredentials = new RestClientClientCredentialsTokenResponseClient();

	/**
	 * @param properties the timeouts
	 * @param clientKeys the signing key of each {@code private_key_jwt} registration, by
	 * registration id
	 */
	TokenEndpointClient(UpstreamAuthProperties properties, Map<String, JWK> clientKeys) {
		RestClient restClient = restClient(properties);
		Function<ClientRegistration, @Nullable JWK> keys = (registration) -> signingKey(registration, clientKeys);
		this.exchange.setRestClient(restClient);
		this.exchange.setParametersConverter(TokenEndpointClient::targetParameters);
		this.exchange.addParametersConverter(assertions(keys));
		this.clientCredentials.setRestClient(restClient);
		this.clientCredentials.setParametersConverter(TokenEndpointClient::targetParameters);
		this.clientCredentials.addParametersConverter(assertions(keys));
	}

	/**
	 * RFC 8693: a token for {@code auth}'s upstream naming the owner of
	 * {@code subjectToken}, with {@code actorToken} (when not null) as the actor.
	 */
	OAuth2AccessToken exchange(ClientRegistration registration, UpstreamAuth auth, String subjectToken,
			@Nullable String actorToken) {
		return call(() -> this.exchange
			.getTokenResponse(new TargetedExchange(registration, auth, accessToken(subjectToken),
					(actorToken != null) ? accessToken(actorToken) : null))
			.getAccessToken());
	}

	/** The gateway's own token for {@code auth}'s upstream. */
	OAuth2AccessToken clientCredentials(ClientRegistration registration, UpstreamAuth auth) {
		return call(() -> this.clientCredentials.getTokenResponse(new TargetedClientCredentials(registration, auth))
			.getAccessToken());
	}

	private static OAuth2AccessToken call(java.util.function.Supplier<OAuth2AccessToken> request) {
		try {
			return request.get();
		}
		catch (OAuth2AuthorizationException ex) {
			throw classify(ex);
		}
		catch (RestClientException ex) {
			throw UpstreamTokenException.unavailable("invalid_response");
		}
	}

	/**
	 * Refused: the endpoint answered with an OAuth error or a 4xx. Unavailable: it could
	 * not be reached, timed out, failed (5xx, {@code server_error},
	 * {@code temporarily_unavailable}) or answered something that is not a token
	 * response; a retry may succeed.
	 */
	static UpstreamTokenException classify(OAuth2AuthorizationException ex) {
		Throwable cause = ex.getCause();
		if (cause instanceof HttpClientErrorException client) {
			return UpstreamTokenException.refused((client.getStatusCode().value() == 401)
					? OAuth2ErrorCodes.INVALID_CLIENT : "http_" + client.getStatusCode().value());
		}
		if (cause instanceof HttpServerErrorException server) {
			return UpstreamTokenException.unavailable("http_" + server.getStatusCode().value());
		}
		if (cause instanceof ResourceAccessException access) {
			return UpstreamTokenException
				.unavailable((access.getCause() instanceof HttpTimeoutException) ? "timeout" : "unreachable");
		}
		if (cause instanceof RestClientException) {
			return UpstreamTokenException.unavailable("invalid_response");
		}
		String code = ex.getError().getErrorCode();
		if (code.equals(OAuth2ErrorCodes.SERVER_ERROR) || code.equals(OAuth2ErrorCodes.TEMPORARILY_UNAVAILABLE)
				|| code.equals("invalid_token_response")) {
			return UpstreamTokenException.unavailable(code);
		}
		return UpstreamTokenException.refused(code);
	}

	/**
	 * The grant's parameters: Spring's defaults, with the policy's target. A policy
	 * {@code scope} replaces the registration's.
	 */
	private static <T extends AbstractOAuth2AuthorizationGrantRequest> MultiValueMap<String, String> targetParameters(
			T request) {
		MultiValueMap<String, String> parameters = new LinkedMultiValueMap<>();
		UpstreamAuth auth = (request instanceof Targeted targeted) ? targeted.auth() : null;
		if (auth != null) {
			if (auth.audience() != null) {
				parameters.set(OAuth2ParameterNames.AUDIENCE, auth.audience());
			}
			if (auth.resource() != null) {
				parameters.set(OAuth2ParameterNames.RESOURCE, auth.resource());
			}
			if (auth.scope() != null) {
				parameters.set(OAuth2ParameterNames.SCOPE, auth.scope());
			}
		}
		return parameters;
	}

	private static <T extends AbstractOAuth2AuthorizationGrantRequest> Converter<T, MultiValueMap<String, String>> assertions(
			Function<ClientRegistration, @Nullable JWK> keys) {
		NimbusJwtClientAuthenticationParametersConverter<T> converter = new NimbusJwtClientAuthenticationParametersConverter<>(
				keys::apply);
		converter.setJwtClientAssertionCustomizer((context) -> {
			JWK key = keys.apply(context.getAuthorizationGrantRequest().getClientRegistration());
			if (key != null && key.getX509CertSHA256Thumbprint() != null) {
				context.getHeaders().x509SHA256Thumbprint(key.getX509CertSHA256Thumbprint().toString());
			}
			@SuppressWarnings("deprecation")
			var sha1 = (key != null) ? key.getX509CertThumbprint() : null;
			if (sha1 != null) {
				context.getHeaders().header("x5t", sha1.toString());
			}
		});
		return converter;
	}

	/**
	 * The key a registration signs its client assertion with: the configured one for
	 * {@code private_key_jwt}, its secret for {@code client_secret_jwt}, none otherwise.
	 */
	private static @Nullable JWK signingKey(ClientRegistration registration, Map<String, JWK> clientKeys) {
		ClientAuthenticationMethod method = registration.getClientAuthenticationMethod();
		if (ClientAuthenticationMethod.PRIVATE_KEY_JWT.equals(method)) {
			return clientKeys.get(registration.getRegistrationId());
		}
		if (ClientAuthenticationMethod.CLIENT_SECRET_JWT.equals(method) && registration.getClientSecret() != null) {
			return new OctetSequenceKey.Builder(
					registration.getClientSecret().getBytes(java.nio.charset.StandardCharsets.UTF_8))
				.keyID(UUID.nameUUIDFromBytes(registration.getRegistrationId().getBytes()).toString())
				.build();
		}
		return null;
	}

	private static RestClient restClient(UpstreamAuthProperties properties) {
		HttpClient httpClient = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(properties.connectTimeout())
			.followRedirects(HttpClient.Redirect.NEVER)
			.build();
		JdkClientHttpRequestFactory requestFactory = new JdkClientHttpRequestFactory(httpClient);
		requestFactory.setReadTimeout(properties.readTimeout());
		return RestClient.builder().requestFactory(requestFactory).configureMessageConverters((converters) -> {
			converters.addCustomConverter(new FormHttpMessageConverter());
			converters.addCustomConverter(new OAuth2AccessTokenResponseHttpMessageConverter());
		}).defaultStatusHandler(new OAuth2ErrorResponseErrorHandler()).build();
	}

	/**
	 * A token value as an opaque access token: sent with the token type
	 * {@code urn:ietf:params:oauth:token-type:access_token}.
	 */
	private static OAuth2AccessToken accessToken(String value) {
		return new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, value, null, null);
	}

	/** A grant request that carries the server's target. */
	private interface Targeted {

		UpstreamAuth auth();

	}

	private static final class TargetedExchange extends TokenExchangeGrantRequest implements Targeted {

		private final UpstreamAuth auth;

		TargetedExchange(ClientRegistration registration, UpstreamAuth auth, OAuth2AccessToken subjectToken,
				@Nullable OAuth2AccessToken actorToken) {
			super(registration, subjectToken, actorToken);
			this.auth = auth;
		}

		@Override
		public UpstreamAuth auth() {
			return this.auth;
		}

	}

	private static final class TargetedClientCredentials extends OAuth2ClientCredentialsGrantRequest
			implements Targeted {

		private final UpstreamAuth auth;

		TargetedClientCredentials(ClientRegistration registration, UpstreamAuth auth) {
			super(registration);
			this.auth = auth;
		}

		@Override
		public UpstreamAuth auth() {
			return this.auth;
		}

	}

}
