package io.github.mcpgateway.demo;

import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;

import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;

/**
 * A development-only token issuer: an RSA key made at start-up, its JWKS, and RS256
 * tokens for any principal asked for. It exists only in the demo profile, so a newcomer
 * can curl the gateway without an authorization server. Never enable it where the gateway
 * is reachable by others.
 */
final class DemoTokenIssuer {

	private final RSAKey key;

	private final NimbusJwtEncoder encoder;

	private final String issuer;

	private final String audience;

	private final Clock clock;

	DemoTokenIssuer(String issuer, String audience, Clock clock) {
		this.key = generate();
		this.encoder = new NimbusJwtEncoder(new ImmutableJWKSet<>(new JWKSet(this.key)));
		this.issuer = issuer;
		this.audience = audience;
		this.clock = clock;
	}

	String issue(String human, String agent, String team, Duration ttl) {
		Instant now = this.clock.instant();
		JwtClaimsSet.Builder claims = JwtClaimsSet.builder()
			.issuer(this.issuer)
			.audience(java.util.List.of(this.audience))
			.subject(human)
			.issuedAt(now)
			.notBefore(now)
			.expiresAt(now.plus(ttl))
			.id(UUID.randomUUID().toString());
		if (agent != null && !agent.isBlank()) {
			claims.claim("act", Map.of("sub", agent));
		}
		if (team != null && !team.isBlank()) {
			claims.claim("team", team);
		}
		JwsHeader header = JwsHeader.with(SignatureAlgorithm.RS256).keyId(this.key.getKeyID()).build();
		return this.encoder.encode(JwtEncoderParameters.from(header, claims.build())).getTokenValue();
	}

	Map<String, Object> jwks() {
		return new JWKSet(this.key.toPublicJWK()).toJSONObject();
	}

	private static RSAKey generate() {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
			generator.initialize(2048);
			var pair = generator.generateKeyPair();
			return new RSAKey.Builder((RSAPublicKey) pair.getPublic()).privateKey((RSAPrivateKey) pair.getPrivate())
				.keyID(UUID.randomUUID().toString())
				.build();
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("RSA is required by every Java platform", ex);
		}
	}

}
