package io.github.mcpgateway.identity;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidationException;

import io.github.mcpgateway.support.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CachingJwtDecoderTest {

	private final MutableClock clock = new MutableClock();

	private final AtomicInteger verifications = new AtomicInteger();

	private volatile boolean claimsValid = true;

	private final JwtDecoder verifying = (token) -> {
		this.verifications.incrementAndGet();
		if (token.startsWith("bad")) {
			throw new BadJwtException("bad signature");
		}
		return Jwt.withTokenValue(token)
			.header("alg", "RS256")
			.subject("alice")
			.issuedAt(this.clock.instant())
			.expiresAt(this.clock.instant().plusSeconds(300))
			.build();
	};

	private final CachingJwtDecoder decoder = new CachingJwtDecoder(this.verifying,
			(jwt) -> this.claimsValid ? OAuth2TokenValidatorResult.success()
					: OAuth2TokenValidatorResult.failure(new OAuth2Error("invalid_token")),
			Duration.ofMinutes(1), 100, this.clock);

	@Test
	void decodeWhenSameTokenAgainThenSignatureIsVerifiedOnce() {
		this.decoder.decode("token-a");
		this.decoder.decode("token-a");
		this.decoder.decode("token-b");

		assertThat(this.verifications).hasValue(2);
	}

	@Test
	void decodeWhenCachedTokenNoLongerPassesItsClaimsThenRejected() {
		this.decoder.decode("token-a");
		this.claimsValid = false;

		assertThatThrownBy(() -> this.decoder.decode("token-a")).isInstanceOf(JwtValidationException.class);
		this.claimsValid = true;
		this.decoder.decode("token-a");
		assertThat(this.verifications).as("the rejected entry was dropped and verified again").hasValue(2);
	}

	@Test
	void decodeWhenCacheTtlPassedOnTheGatewayClockThenSignatureIsVerifiedAgain() {
		this.decoder.decode("token-a");
		this.clock.advance(Duration.ofSeconds(59));
		this.decoder.decode("token-a");
		assertThat(this.verifications).as("within the cache ttl").hasValue(1);

		this.clock.advance(Duration.ofSeconds(2));
		this.decoder.decode("token-a");

		assertThat(this.verifications).as("past the cache ttl").hasValue(2);
	}

	@Test
	void decodeWhenRejectedThenNotCached() {
		for (int i = 0; i < 3; i++) {
			assertThatThrownBy(() -> this.decoder.decode("bad-token")).isInstanceOf(BadJwtException.class);
		}

		assertThat(this.verifications).hasValue(3);
	}

}
