package io.github.mcpgateway.session;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Session bindings ({@code gateway.session.*}).
 *
 * @param store where bindings live: {@code memory} (this process) or {@code redis}
 * (shared by every replica using the same Redis, and kept across restarts)
 * @param maxBindings most bindings the {@code memory} store keeps; past it the least
 * recently used one is dropped (its client gets 404 and initializes again)
 * @param maxPerPrincipal most bindings one human holds (across its agents, teams and
 * servers); past it that human's least recently used binding is dropped, never another
 * human's
 * @param idleTimeout a binding unused for this long is forgotten
 * @param redis the {@code redis} store
 */
@Validated
@ConfigurationProperties(prefix = "gateway.session", ignoreUnknownFields = false)
public record SessionProperties(@DefaultValue("memory") @NotNull StoreType store,
		@DefaultValue("10000") @Min(1) int maxBindings, @DefaultValue("100") @Min(1) int maxPerPrincipal,
		@DefaultValue("24h") @NotNull Duration idleTimeout, @Valid @DefaultValue Redis redis) {

	public SessionProperties {
		if (idleTimeout != null && (idleTimeout.isNegative() || idleTimeout.isZero())) {
			throw new IllegalArgumentException("gateway.session.idle-timeout must be positive");
		}
		if (idleTimeout != null && redis != null && redis.touchInterval().compareTo(idleTimeout) >= 0) {
			throw new IllegalArgumentException(
					"gateway.session.redis.touch-interval must be shorter than gateway.session.idle-timeout");
		}
	}

	/** Where session bindings live. */
	public enum StoreType {

		/** In this process: lost on restart, unknown to other replicas. */
		MEMORY,
		/** In Redis ({@code spring.data.redis.*}), shared by every replica. */
		REDIS

	}

	/**
	 * The {@code redis} session store.
	 *
	 * @param keyPrefix prefix of every Redis key of a binding (the rest is a SHA-256 of
	 * the session id; the id itself is never stored)
	 * @param touchInterval a binding's idle timeout (its TTL) is renewed at most once per
	 * this interval, not on every request; a session thus lives between
	 * {@code idle-timeout - touch-interval} and {@code idle-timeout} after its last use
	 */
	public record Redis(@DefaultValue("{mcp-gateway}:session:") @NotNull String keyPrefix,
			@DefaultValue("1m") @NotNull Duration touchInterval) {

		public Redis {
			if (keyPrefix != null && keyPrefix.isEmpty()) {
				throw new IllegalArgumentException("gateway.session.redis.key-prefix must not be empty");
			}
			if (touchInterval != null && (touchInterval.isNegative() || touchInterval.isZero())) {
				throw new IllegalArgumentException("gateway.session.redis.touch-interval must be positive");
			}
		}

	}

}
