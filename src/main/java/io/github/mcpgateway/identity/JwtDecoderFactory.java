package io.github.mcpgateway.identity;

import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

import io.github.mcpgateway.clock.GatewayClock;

/**
 * Builds the JWT decoder from {@link IdentityProperties.OAuth}: signature checked against
 * the issuer's JWKS (keys fetched and cached by Nimbus, refreshed on an unknown
 * {@code kid}), only the configured algorithms (never {@code none}), and {@code iss},
 * {@code exp} and {@code nbf} validated; the audience depends on the request's resource
 * and is checked by {@link ResourceAudienceAuthenticationManagerResolver}. A token
 * without {@code exp} is rejected. A verified token is remembered for
 * {@code token-cache-ttl} ({@link CachingJwtDecoder}); its claims are checked again on
 * every use.
 */
final class JwtDecoderFactory {

	private JwtDecoderFactory() {
	}

	static JwtDecoder create(IdentityProperties.OAuth oauth, GatewayClock clock) {
		NimbusJwtDecoder decoder = NimbusJwtDecoder.withJwkSetUri(oauth.jwkSetUri().toString())
			.jwsAlgorithms((algorithms) -> oauth.algorithms().forEach((name) -> algorithms.add(algorithm(name))))
			.build();
		OAuth2TokenValidator<Jwt> validator = new DelegatingOAuth2TokenValidator<>(timestamps(oauth, clock),
				new JwtIssuerValidator(oauth.issuer()),
				new JwtClaimValidator<Object>(JwtClaimNames.EXP, (exp) -> exp != null));
		decoder.setJwtValidator(validator);
		if (oauth.tokenCacheTtl().isZero()) {
			return decoder;
		}
		return new CachingJwtDecoder(decoder, validator, oauth.tokenCacheTtl(), oauth.tokenCacheSize(), clock);
	}

	/**
	 * Expiry and not-before, read on the gateway clock that also expires cached tokens.
	 */
	private static JwtTimestampValidator timestamps(IdentityProperties.OAuth oauth, GatewayClock clock) {
		JwtTimestampValidator timestamps = new JwtTimestampValidator(oauth.clockSkew());
		timestamps.setClock(clock);
		return timestamps;
	}

	private static SignatureAlgorithm algorithm(String name) {
		SignatureAlgorithm algorithm = SignatureAlgorithm.from(name);
		if (algorithm == null) {
			throw new IllegalArgumentException("gateway.identity.oauth.algorithms: unsupported algorithm " + name);
		}
		return algorithm;
	}

}
