package io.github.mcpgateway.identity;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.principal.PrincipalPattern;

/**
 * How callers are verified ({@code gateway.identity.*}).
 *
 * @param oauth the OAuth2 authorization server whose JWTs the gateway accepts
 * @param claims which JWT claims make up the {@link McpPrincipal}
 * @param certificate how a verified client certificate maps to a principal
 * ({@code adapter-certificate} servers)
 * @param delegatedHeader what {@code delegated-header} servers receive from the caller
 * @param operators who may use the operator endpoints ({@code /actuator/idempotency},
 * {@code /actuator/policy}, {@code /actuator/sessions}, {@code /actuator/metrics}): OAuth
 * principals matching one of these patterns; empty (the default) means nobody
 * @param resourceBaseUrl the public URL of the gateway's root (context path included),
 * the base of every canonical resource URI (RFC 8707): what clients see behind an
 * ingress. Unset, it is built from each request
 */
@Validated
@ConfigurationProperties(prefix = "gateway.identity", ignoreUnknownFields = false)
public record IdentityProperties(@Valid @NotNull OAuth oauth, @Valid @DefaultValue Claims claims,
		@Valid @DefaultValue Certificate certificate, @Valid @DefaultValue DelegatedHeader delegatedHeader,
		@DefaultValue List<PrincipalPattern> operators, @Nullable URI resourceBaseUrl) {

	public IdentityProperties {
		if (resourceBaseUrl != null && (!resourceBaseUrl.isAbsolute() || resourceBaseUrl.getHost() == null
				|| !("http".equalsIgnoreCase(resourceBaseUrl.getScheme())
						|| "https".equalsIgnoreCase(resourceBaseUrl.getScheme()))
				|| resourceBaseUrl.getRawQuery() != null || resourceBaseUrl.getRawFragment() != null)) {
			throw new IllegalArgumentException(
					"gateway.identity.resource-base-url must be an absolute http(s) URL without query or fragment");
		}
		if (oauth != null && oauth.audiences().isEmpty() && resourceBaseUrl == null) {
			throw new IllegalArgumentException("gateway.identity.oauth.audiences must not be empty unless "
					+ "gateway.identity.resource-base-url is set");
		}
	}

	/**
	 * The trusted issuer. Issuer and JWKS are required, and so is an audience: a token
	 * must name the request's resource (RFC 8707) or one of {@code audiences}, which may
	 * be empty only when {@code resource-base-url} fixes the resource URIs.
	 *
	 * @param issuer expected {@code iss} claim, also advertised as the authorization
	 * server in the RFC 9728 protected-resource metadata
	 * @param jwkSetUri where the issuer's signing keys are published (JWKS, RFC 7517)
	 * @param audiences {@code aud} values accepted on every path, besides the request's
	 * own resource URI (RFC 8707)
	 * @param algorithms accepted JWS algorithms; {@code none} is never accepted
	 * @param clockSkew tolerance applied to {@code exp} and {@code nbf}
	 * @param tokenCacheTtl how long a token whose signature was verified is remembered,
	 * so that its next uses skip the signature check (claims are still checked every
	 * time); {@code 0} turns the cache off. Bounds how long a token signed by a key the
	 * issuer removed keeps working.
	 * @param tokenCacheSize most tokens remembered
	 * @param authorizationServers what the RFC 9728 metadata names as
	 * {@code authorization_servers}: the issuer when unset; an empty list names none (the
	 * field is left out), for an issuer that serves no RFC 8414 metadata a client could
	 * use
	 */
	public record OAuth(@NotBlank String issuer, @NotNull URI jwkSetUri, @DefaultValue List<@NotBlank String> audiences,
			@DefaultValue("RS256") @NotEmpty List<String> algorithms, @DefaultValue("60s") Duration clockSkew,
			@DefaultValue("60s") @NotNull Duration tokenCacheTtl, @DefaultValue("10000") @Min(1) long tokenCacheSize,
			@Nullable List<@NotBlank String> authorizationServers) {

		public OAuth {
			if (tokenCacheTtl != null && tokenCacheTtl.isNegative()) {
				throw new IllegalArgumentException("gateway.identity.oauth.token-cache-ttl must not be negative");
			}
			authorizationServers = (authorizationServers != null) ? List.copyOf(authorizationServers)
					: (issuer != null) ? List.of(issuer) : List.of();
		}

	}

	/**
	 * Claim names, each a dotted path into nested claims ({@code act.sub} reads
	 * {@code sub} inside the RFC 8693 {@code act} claim). For the agent, the first claim
	 * present wins.
	 *
	 * @param human claim naming the human; a token without it is rejected
	 * @param agent claims naming the agent, tried in order
	 * @param team claim naming the team
	 */
	public record Claims(@DefaultValue("sub") @NotBlank String human, @DefaultValue( {
			"act.sub", "azp" }) List<String> agent, @DefaultValue("team") String team){
	}

	/**
	 * Maps a client certificate, already verified by the TLS trust store, to a principal.
	 * Each pattern is a Java regular expression that must match a whole value; its named
	 * groups {@code human}, {@code agent} and {@code team} fill the principal, and
	 * without a {@code human} group the whole matched value (the workload identity) is
	 * the human. SAN URIs are tried first, then the subject DN (RFC 2253 form). A
	 * certificate that matches neither is refused (401).
	 *
	 * @param sanUriPattern pattern for SAN URIs, for example
	 * {@code spiffe://[^/]+/ns/(?<team>[^/]+)/sa/(?<agent>[^/]+)}
	 * @param subjectPattern pattern for the subject DN, for example
	 * {@code CN=(?<agent>[^,]+),OU=(?<team>[^,]+),.*}
	 */
	public record Certificate(@Nullable String sanUriPattern, @Nullable String subjectPattern) {

		public Certificate {
			compile(sanUriPattern, "san-uri-pattern");
			compile(subjectPattern, "subject-pattern");
		}

		private static void compile(@Nullable String pattern, String name) {
			if (pattern != null) {
				try {
					java.util.regex.Pattern.compile(pattern);
				}
				catch (java.util.regex.PatternSyntaxException ex) {
					throw new IllegalArgumentException("gateway.identity.certificate." + name + " is not a valid "
							+ "regular expression: " + ex.getDescription());
				}
			}
		}

	}

	/**
	 * @param forwardHeaders the caller's headers passed to a {@code delegated-header}
	 * server (every other server never receives {@code Authorization},
	 * {@code Proxy-Authorization} or {@code Cookie})
	 */
	public record DelegatedHeader(@DefaultValue("Authorization") List<String> forwardHeaders) {
	}

}
