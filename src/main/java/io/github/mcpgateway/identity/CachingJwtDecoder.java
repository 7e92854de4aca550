package io.github.mcpgateway.identity;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtValidationException;

import io.github.mcpgateway.clock.GatewayClock;

/**
 * Remembers tokens whose signature was verified, so that an agent sending the same token
 * on every call pays the RSA verification (and the JWK decoding around it) once, not per
 * request.
 *
 * <p>
 * Design notes. The key is the exact token string: a token that differs in one byte is a
 * different key and is verified in full. A hit still runs every claim validator (expiry,
 * not-before, issuer, audience), so a cached token stops working the moment it expires.
 * What a hit skips is the signature check against the current JWKS: a token signed by a
 * key that the issuer has since removed keeps working for at most {@code ttl} after it
 * was first seen. The cache is bounded in size (Caffeine evicts by its Window TinyLFU
 * policy: rarely used tokens go first, not strictly the least recently used), and
 * rejected tokens are never cached, so invalid tokens cannot crowd out valid ones.
 */
final class CachingJwtDecoder implements JwtDecoder {

	private final JwtDecoder delegate;

	private final OAuth2TokenValidator<Jwt> validator;

	private final Cache<String, Jwt> verified;

	CachingJwtDecoder(JwtDecoder delegate, OAuth2TokenValidator<Jwt> validator, Duration ttl, long maxSize,
			GatewayClock clock) {
		this.delegate = delegate;
		this.validator = validator;
		this.verified = Caffeine.newBuilder().maximumSize(maxSize).expireAfterWrite(ttl).ticker(clock.ticker()).build();
	}

	@Override
	public Jwt decode(String token) throws JwtException {
		Jwt cached = this.verified.getIfPresent(token);
		if (cached == null) {
			Jwt jwt = this.delegate.decode(token);
			this.verified.put(token, jwt);
			return jwt;
		}
		OAuth2TokenValidatorResult result = this.validator.validate(cached);
		if (result.hasErrors()) {
			this.verified.invalidate(token);
			throw new JwtValidationException("The token is no longer valid", result.getErrors());
		}
		return cached;
	}

}
