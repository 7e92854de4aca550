package io.github.mcpgateway.upstreamauth;

import java.time.Duration;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.io.Resource;
import org.springframework.validation.annotation.Validated;

/**
 * How the gateway talks to the token endpoints of {@code upstream-auth} servers
 * ({@code gateway.upstream-auth.*}). The endpoints and the gateway's client credentials
 * themselves are Spring Security client registrations
 * ({@code spring.security.oauth2.client.registration.<id>}).
 *
 * @param connectTimeout how long to wait for a connection to a token endpoint
 * @param readTimeout how long to wait for its answer
 * @param retryAfter the {@code Retry-After} sent with {@code upstream_token_unavailable}
 * @param refreshBefore a token is used until this long before it expires (or half its
 * lifetime, for shorter-lived tokens), then obtained again
 * @param maxCachedTokens most tokens kept; past it the least recently used are dropped
 * @param clientKeys private keys for registrations that authenticate with
 * {@code private_key_jwt}, by registration id
 */
@Validated
@ConfigurationProperties(prefix = "gateway.upstream-auth", ignoreUnknownFields = false)
public record UpstreamAuthProperties(@DefaultValue("2s") @NotNull Duration connectTimeout,
		@DefaultValue("5s") @NotNull Duration readTimeout, @DefaultValue("5s") @NotNull Duration retryAfter,
		@DefaultValue("30s") @NotNull Duration refreshBefore, @DefaultValue("10000") @Min(1) int maxCachedTokens,
		@Valid @Nullable Map<String, ClientKey> clientKeys) {

	public UpstreamAuthProperties {
		requirePositive(connectTimeout, "connect-timeout");
		requirePositive(readTimeout, "read-timeout");
		requirePositive(retryAfter, "retry-after");
		if (refreshBefore != null && refreshBefore.isNegative()) {
			throw new IllegalArgumentException("gateway.upstream-auth.refresh-before must not be negative");
		}
		clientKeys = (clientKeys != null) ? Map.copyOf(clientKeys) : Map.of();
	}

	private static void requirePositive(@Nullable Duration value, String name) {
		if (value != null && (value.isNegative() || value.isZero())) {
			throw new IllegalArgumentException("gateway.upstream-auth." + name + " must be positive");
		}
	}

	/**
	 * The key a registration signs its client assertions with ({@code private_key_jwt},
	 * RFC 7523).
	 *
	 * @param jwk a JSON Web Key (RFC 7517) with its private part, RSA or EC; its
	 * {@code kid} and, when present, its {@code x5t}/{@code x5t#S256} thumbprints are
	 * sent in the assertion's header
	 */
	public record ClientKey(@NotNull Resource jwk) {
	}

}
