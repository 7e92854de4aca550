package io.github.mcpgateway.identity;

import java.util.List;

import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/**
 * Builds the JWT decoder from {@link IdentityProperties.OAuth}: signature checked against
 * the issuer's JWKS (keys fetched and cached by Nimbus, refreshed on an unknown
 * {@code kid}), only the configured algorithms (never {@code none}), and {@code iss},
 * {@code aud}, {@code exp} and {@code nbf} validated. A token without {@code exp} is
 * rejected. A verified token is remembered for {@code token-cache-ttl}
 * ({@link CachingJwtDecoder}); its claims are checked again on every use.
 */
final class JwtDecoderFactory {

	private JwtDecoderFactory() {
	}

	static JwtDecoder create(IdentityProperties.OAuth oauth) {
		NimbusJwtDecoder decoder = NimbusJwtDecoder.withJwkSetUri(oauth.jwkSetUri().toString())
			.jwsAlgorithms((algorithms) -> oauth.algorithms().forEach((name) -> algorithms.add(algorithm(name))))
			.build();
		List<String> audiences = oauth.audiences();
		OAuth2TokenValidator<Jwt> validator = new DelegatingOAuth2TokenValidator<>(
				new JwtTimestampValidator(oauth.clockSkew()), new JwtIssuerValidator(oauth.issuer()),
				new JwtClaimValidator<Object>(JwtClaimNames.EXP, (exp) -> exp != null),
				new JwtClaimValidator<List<String>>(JwtClaimNames.AUD,
						(aud) -> aud != null && aud.stream().anyMatch(audiences::contains)));
		decoder.setJwtValidator(validator);
		if (oauth.tokenCacheTtl().isZero()) {
			return decoder;
		}
		return new CachingJwtDecoder(decoder, validator, oauth.tokenCacheTtl(), oauth.tokenCacheSize());
	}

	private static SignatureAlgorithm algorithm(String name) {
		SignatureAlgorithm algorithm = SignatureAlgorithm.from(name);
		if (algorithm == null) {
			throw new IllegalArgumentException("gateway.identity.oauth.algorithms: unsupported algorithm " + name);
		}
		return algorithm;
	}

}
