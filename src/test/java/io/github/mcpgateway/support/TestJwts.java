package io.github.mcpgateway.support;

import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.PlainHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;

/**
 * Builds real RS256-signed test tokens:
 * {@code TestJwts.jwt().human("alice").team("blue").sign()}. Defaults are a valid token
 * for the test gateway; each setter breaks one thing on purpose.
 */
public final class TestJwts {

	private final Map<String, Object> claims = new LinkedHashMap<>();

	private Instant issuedAt = Instant.now();

	private Duration lifetime = Duration.ofMinutes(5);

	private Instant notBefore = this.issuedAt;

	private RSAKey key = TestJwks.get().publishedKey();

	private String keyId = this.key.getKeyID();

	private TestJwts() {
		this.claims.put("iss", TestJwks.ISSUER);
		this.claims.put("aud", List.of(TestJwks.AUDIENCE));
		this.claims.put("sub", "alice");
		this.claims.put("team", "blue");
		this.claims.put("act", Map.of("sub", "agent-1"));
	}

	public static TestJwts jwt() {
		return new TestJwts();
	}

	public TestJwts human(String human) {
		this.claims.put("sub", human);
		return this;
	}

	public TestJwts team(String team) {
		if (team == null) {
			this.claims.remove("team");
		}
		else {
			this.claims.put("team", team);
		}
		return this;
	}

	public TestJwts agent(String agent) {
		this.claims.put("act", Map.of("sub", agent));
		return this;
	}

	public TestJwts claim(String name, Object value) {
		this.claims.put(name, value);
		return this;
	}

	public TestJwts issuer(String issuer) {
		return claim("iss", issuer);
	}

	public TestJwts audience(String... audiences) {
		return claim("aud", List.of(audiences));
	}

	public TestJwts expiredSince(Duration ago) {
		this.issuedAt = Instant.now().minus(ago).minus(this.lifetime);
		this.notBefore = this.issuedAt;
		return this;
	}

	public TestJwts notBefore(Instant notBefore) {
		this.notBefore = notBefore;
		return this;
	}

	/** Signs with a key the JWKS does not publish, under the published key's id. */
	public TestJwts signedWithUnpublishedKey() {
		this.key = TestJwks.get().unpublishedKey();
		return this;
	}

	/** Signs with the published key but names a key id the JWKS does not have. */
	public TestJwts unknownKeyId() {
		this.keyId = "no-such-key";
		return this;
	}

	public String sign() {
		try {
			SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(this.keyId).build(),
					claimsSet());
			jwt.sign(new RSASSASigner(this.key));
			return jwt.serialize();
		}
		catch (JOSEException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** An unsecured JWT ({@code alg: none}). */
	public String unsigned() {
		return new PlainJWT(new PlainHeader(), claimsSet()).serialize();
	}

	private JWTClaimsSet claimsSet() {
		JWTClaimsSet.Builder builder = new JWTClaimsSet.Builder().issueTime(Date.from(this.issuedAt))
			.notBeforeTime(Date.from(this.notBefore))
			.expirationTime(Date.from(this.issuedAt.plus(this.lifetime)));
		this.claims.forEach(builder::claim);
		return builder.build();
	}

}
