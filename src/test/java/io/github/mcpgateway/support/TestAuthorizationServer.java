package io.github.mcpgateway.support;

import java.io.IOException;
import java.net.ServerSocket;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.boot.security.oauth2.server.authorization.autoconfigure.servlet.OAuth2AuthorizationServerAutoConfiguration;
import org.springframework.boot.security.oauth2.server.authorization.autoconfigure.servlet.OAuth2AuthorizationServerJwtAutoConfiguration;
import org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.authorization.InMemoryOAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientCredentialsAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2TokenExchangeAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.InMemoryRegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.ClientSettings;
import org.springframework.security.oauth2.server.authorization.settings.TokenSettings;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;

/**
 * A real Spring Authorization Server on loopback that grants RFC 8693 token exchange and
 * client credentials to the gateway's clients, for the upstream-auth tests.
 *
 * <p>
 * Two test-only additions, both needed because Spring Authorization Server exchanges only
 * tokens it issued itself: its authorization store also accepts access tokens of the test
 * issuer ({@link TestJwks}, the tokens callers present to the gateway), as Keycloak or
 * Entra ID accept tokens of a trusted issuer by configuration; and issued tokens get the
 * requested {@code audience}/{@code resource} as {@code aud} and the caller's
 * {@code team}. Everything else (client authentication, grant checks, scope checks, the
 * {@code act} claim from an actor token, token signing) is Spring Authorization Server's
 * own.
 *
 * <p>
 * Clients: {@code gateway} (secret {@code gateway-secret}, token exchange and client
 * credentials, scopes {@code tickets.read} and {@code mcp}), {@code gateway-short}
 * (client credentials, tokens live 2 s), {@code gateway-jwt} ({@code private_key_jwt},
 * key {@link #CLIENT_KEY}, client credentials) and {@code no-exchange} (client
 * credentials only).
 */
public final class TestAuthorizationServer implements AutoCloseable {

	/** The signing key of the {@code gateway-jwt} client, with its private part. */
	public static final RSAKey CLIENT_KEY = TestJwks.rsaKey();

	private static final RSAKey SERVER_KEY = TestJwks.rsaKey();

	private final int port;

	private final List<Map<String, String>> tokenRequests = new CopyOnWriteArrayList<>();

	private final Set<String> refusedSubjects = ConcurrentHashMap.newKeySet();

	private volatile Duration delay = Duration.ZERO;

	private @Nullable ConfigurableApplicationContext context;

	private TestAuthorizationServer(int port) {
		this.port = port;
	}

	/** Starts a server on a free port (about 4 s). */
	public static TestAuthorizationServer start() {
		TestAuthorizationServer server = new TestAuthorizationServer(freePort());
		server.startContext();
		return server;
	}

	/** Starts it again on the same port, with the same keys and clients. */
	public synchronized void restart() {
		stop();
		startContext();
	}

	/** Stops it: its port refuses connections. */
	public synchronized void stop() {
		if (this.context != null) {
			this.context.close();
			this.context = null;
		}
	}

	@Override
	public void close() {
		stop();
	}

	public String issuer() {
		return "http://127.0.0.1:" + this.port;
	}

	public String tokenUri() {
		return issuer() + "/oauth2/token";
	}

	/** A decoder that verifies the tokens this server issues. */
	public JwtDecoder decoder() {
		try {
			return NimbusJwtDecoder.withPublicKey(SERVER_KEY.toRSAPublicKey()).build();
		}
		catch (com.nimbusds.jose.JOSEException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The form parameters of every token request received (secrets and tokens included:
	 * the test needs them to check what was sent).
	 */
	public List<Map<String, String>> tokenRequests() {
		return List.copyOf(this.tokenRequests);
	}

	/**
	 * Token requests of one grant type (its short name, for example
	 * {@code token-exchange}).
	 */
	public long tokenRequests(AuthorizationGrantType grant) {
		return this.tokenRequests.stream().filter((r) -> grant.getValue().equals(r.get("grant_type"))).count();
	}

	/** Refuses exchanges of {@code subject}'s tokens ({@code invalid_grant}). */
	public void refuseSubject(String subject) {
		this.refusedSubjects.add(subject);
	}

	/** Answers token requests only after {@code delay}. */
	public void delay(Duration delay) {
		this.delay = delay;
	}

	/** Forgets recorded requests, refusals and delays. */
	public void reset() {
		this.tokenRequests.clear();
		this.refusedSubjects.clear();
		this.delay = Duration.ZERO;
	}

	private void startContext() {
		this.context = new SpringApplicationBuilder(ServerConfiguration.class)
			.properties("server.port=" + this.port, "server.address=127.0.0.1",
					"spring.config.name=test-authorization-server-none", "spring.main.banner-mode=off",
					"spring.security.oauth2.authorizationserver.issuer=" + issuer(),
					"logging.level.org.springframework.security=WARN")
			.initializers((context) -> context.getBeanFactory().registerSingleton("testAuthorizationServer", this))
			.run();
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private void recordTokenRequest(HttpServletRequest request) {
		if (!"/oauth2/token".equals(request.getRequestURI())) {
			return;
		}
		Map<String, String> parameters = new java.util.LinkedHashMap<>();
		request.getParameterMap().forEach((name, values) -> parameters.put(name, values[0]));
		String authorization = request.getHeader("Authorization");
		if (authorization != null) {
			parameters.put("authorization", authorization);
		}
		this.tokenRequests.add(parameters);
		if (!this.delay.isZero()) {
			try {
				Thread.sleep(this.delay.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * The server's configuration; deliberately not a {@code @Configuration}, so that the
	 * gateway's component scan of this package never picks it up.
	 */
	@ImportAutoConfiguration({ TomcatServletWebServerAutoConfiguration.class, DispatcherServletAutoConfiguration.class,
			WebMvcAutoConfiguration.class, HttpMessageConvertersAutoConfiguration.class, JacksonAutoConfiguration.class,
			SecurityAutoConfiguration.class, ServletWebSecurityAutoConfiguration.class,
			SecurityFilterAutoConfiguration.class, OAuth2AuthorizationServerAutoConfiguration.class,
			OAuth2AuthorizationServerJwtAutoConfiguration.class })
	static class ServerConfiguration {

		@Bean
		FilterRegistrationBean<Filter> tokenRequestRecorder(TestAuthorizationServer server) {
			FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>((request, response, chain) -> {
				server.recordTokenRequest((HttpServletRequest) request);
				chain.doFilter(request, response);
			});
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			return registration;
		}

		@Bean
		RegisteredClientRepository registeredClientRepository(TestAuthorizationServer server) {
			TokenSettings fiveMinutes = TokenSettings.builder().accessTokenTimeToLive(Duration.ofMinutes(5)).build();
			RegisteredClient gateway = RegisteredClient.withId("gateway")
				.clientId("gateway")
				.clientSecret("{noop}gateway-secret")
				.clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
				.authorizationGrantType(AuthorizationGrantType.TOKEN_EXCHANGE)
				.authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
				.scope("tickets.read")
				.scope("mcp")
				.tokenSettings(fiveMinutes)
				.build();
			RegisteredClient shortLived = RegisteredClient.withId("gateway-short")
				.clientId("gateway-short")
				.clientSecret("{noop}short-secret")
				.clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
				.authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
				.scope("mcp")
				.tokenSettings(TokenSettings.builder().accessTokenTimeToLive(Duration.ofSeconds(2)).build())
				.build();
			RegisteredClient signed = RegisteredClient.withId("gateway-jwt")
				.clientId("gateway-jwt")
				.clientAuthenticationMethod(ClientAuthenticationMethod.PRIVATE_KEY_JWT)
				.authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
				.scope("mcp")
				.clientSettings(ClientSettings.builder()
					.jwkSetUrl(TestJwks.serve(new JWKSet(CLIENT_KEY.toPublicJWK())))
					.tokenEndpointAuthenticationSigningAlgorithm(
							org.springframework.security.oauth2.jose.jws.SignatureAlgorithm.RS256)
					.build())
				.tokenSettings(fiveMinutes)
				.build();
			RegisteredClient noExchange = RegisteredClient.withId("no-exchange")
				.clientId("no-exchange")
				.clientSecret("{noop}no-exchange-secret")
				.clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
				.authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
				.tokenSettings(fiveMinutes)
				.build();
			return new InMemoryRegisteredClientRepository(gateway, shortLived, signed, noExchange);
		}

		@Bean
		JWKSource<SecurityContext> jwkSource() {
			return new ImmutableJWKSet<>(new JWKSet(SERVER_KEY));
		}

		@Bean
		OAuth2AuthorizationService authorizationService(RegisteredClientRepository clients,
				TestAuthorizationServer server) {
			return new TrustedIssuerAuthorizationService(new InMemoryOAuth2AuthorizationService(),
					NimbusJwtDecoder.withJwkSetUri(TestJwks.get().jwksUri()).build(), clients.findByClientId("gateway"),
					server.refusedSubjects);
		}

		@Bean
		OAuth2TokenCustomizer<JwtEncodingContext> audienceFromTarget() {
			return (context) -> {
				List<String> audiences = new ArrayList<>();
				if (context.getAuthorizationGrant() instanceof OAuth2TokenExchangeAuthenticationToken exchange) {
					audiences.addAll(exchange.getAudiences());
					audiences.addAll(exchange.getResources());
					OAuth2Authorization subject = context.getAuthorization();
					OAuth2Authorization.Token<OAuth2AccessToken> token = (subject != null) ? subject.getAccessToken()
							: null;
					if (token != null && token.getClaims() != null && token.getClaims().get("team") != null) {
						context.getClaims().claim("team", token.getClaims().get("team"));
					}
				}
				if (context.getAuthorizationGrant() instanceof OAuth2ClientCredentialsAuthenticationToken credentials) {
					addIfPresent(audiences, credentials.getAdditionalParameters().get("audience"));
					addIfPresent(audiences, credentials.getAdditionalParameters().get("resource"));
				}
				if (!audiences.isEmpty()) {
					context.getClaims().audience(audiences);
				}
			};
		}

		private static void addIfPresent(List<String> audiences, @Nullable Object value) {
			if (value instanceof String string) {
				audiences.add(string);
			}
		}

	}

	/**
	 * Finds authorizations as Spring Authorization Server does, and also accepts an
	 * access token of the trusted test issuer as the record of an authorization of its
	 * subject (unless the test refuses that subject).
	 */
	static final class TrustedIssuerAuthorizationService implements OAuth2AuthorizationService {

		private final OAuth2AuthorizationService delegate;

		private final JwtDecoder trustedIssuer;

		private final RegisteredClient issuedTo;

		private final Collection<String> refusedSubjects;

		TrustedIssuerAuthorizationService(OAuth2AuthorizationService delegate, JwtDecoder trustedIssuer,
				@Nullable RegisteredClient issuedTo, Collection<String> refusedSubjects) {
			this.delegate = delegate;
			this.trustedIssuer = trustedIssuer;
			this.issuedTo = java.util.Objects.requireNonNull(issuedTo);
			this.refusedSubjects = refusedSubjects;
		}

		@Override
		public void save(OAuth2Authorization authorization) {
			this.delegate.save(authorization);
		}

		@Override
		public void remove(OAuth2Authorization authorization) {
			this.delegate.remove(authorization);
		}

		@Override
		public @Nullable OAuth2Authorization findById(String id) {
			return this.delegate.findById(id);
		}

		@Override
		public @Nullable OAuth2Authorization findByToken(String token, @Nullable OAuth2TokenType tokenType) {
			OAuth2Authorization own = this.delegate.findByToken(token, tokenType);
			if (own != null || (tokenType != null && !OAuth2TokenType.ACCESS_TOKEN.equals(tokenType))) {
				return own;
			}
			Jwt jwt;
			try {
				jwt = this.trustedIssuer.decode(token);
			}
			catch (JwtException ex) {
				return null;
			}
			if (this.refusedSubjects.contains(jwt.getSubject())) {
				return null;
			}
			Principal principal = UsernamePasswordAuthenticationToken.authenticated(jwt.getSubject(), null, List.of());
			OAuth2AccessToken accessToken = new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, token,
					(jwt.getIssuedAt() != null) ? jwt.getIssuedAt() : Instant.now(), jwt.getExpiresAt());
			return OAuth2Authorization.withRegisteredClient(this.issuedTo)
				.principalName(jwt.getSubject())
				.authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
				.attribute(Principal.class.getName(), principal)
				.token(accessToken,
						(metadata) -> metadata.put(OAuth2Authorization.Token.CLAIMS_METADATA_NAME, jwt.getClaims()))
				.build();
		}

	}

}
