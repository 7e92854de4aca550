package io.github.mcpgateway.identity;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How callers are verified ({@code gateway.identity.*}).
 *
 * @param oauth the OAuth2 authorization server whose JWTs the gateway accepts
 * @param claims which JWT claims make up the {@link McpPrincipal}
 */
@Validated
@ConfigurationProperties("gateway.identity")
public record IdentityProperties(@Valid @NotNull OAuth oauth, @Valid @DefaultValue Claims claims) {

	/**
	 * The trusted issuer. All three of issuer, JWKS and audience are required: the
	 * gateway never accepts a token whose issuer or audience it did not check.
	 *
	 * @param issuer expected {@code iss} claim, also advertised as the authorization
	 * server in the RFC 9728 protected-resource metadata
	 * @param jwkSetUri where the issuer's signing keys are published (JWKS, RFC 7517)
	 * @param audiences accepted {@code aud} values: the identifiers of this gateway (RFC
	 * 8707)
	 * @param algorithms accepted JWS algorithms; {@code none} is never accepted
	 * @param clockSkew tolerance applied to {@code exp} and {@code nbf}
	 */
	public record OAuth(@NotBlank String issuer, @NotNull URI jwkSetUri, @NotEmpty List<@NotBlank String> audiences,
			@DefaultValue("RS256") @NotEmpty List<String> algorithms, @DefaultValue("60s") Duration clockSkew) {
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

}
