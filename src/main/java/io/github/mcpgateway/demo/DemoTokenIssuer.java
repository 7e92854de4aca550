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
import java.util.concurrent.CompletableFuture;

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
 * tokens for any principal asked for. The key is made on another thread while the gateway
 * starts (a 2048-bit key takes a quarter to half a second of a cold JVM); the first token
 * or JWKS asked for waits for it. It exists only in the demo profile, so a newcomer can
 * curl the gateway without an authorization server. Never enable it where the gateway is
 * reachable by others.
 */
final class DemoTokenIssuer {

	private final CompletableFuture<Signer> signer = CompletableFuture.supplyAsync(() -> new Signer(generate()));

	private final String issuer;

	private final String audience;

	private final Clock clock;

	DemoTokenIssuer(String issuer, String audience, Clock clock) {
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
		Signer signer = this.signer.join();
		JwsHeader header = JwsHeader.with(SignatureAlgorithm.RS256).keyId(signer.key().getKeyID()).build();
		return signer.encoder().encode(JwtEncoderParameters.from(header, claims.build())).getTokenValue();
	}

	Map<String, Object> jwks() {
		return new JWKSet(this.signer.join().key().toPublicJWK()).toJSONObject();
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

	/** The key and the encoder that signs with it. */
	private record Signer(RSAKey key, NimbusJwtEncoder encoder) {

		Signer(RSAKey key) {
			this(key, new NimbusJwtEncoder(new ImmutableJWKSet<>(new JWKSet(key))));
		}

	}

}
