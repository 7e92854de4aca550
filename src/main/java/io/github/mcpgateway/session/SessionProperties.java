package io.github.mcpgateway.session;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The session binding table ({@code gateway.session.*}).
 *
 * @param maxBindings most bindings kept; past it the least recently used one is dropped
 * (its client gets 404 and initializes again)
 * @param idleTimeout a binding unused for this long is forgotten
 */
@Validated
@ConfigurationProperties(prefix = "gateway.session", ignoreUnknownFields = false)
public record SessionProperties(@DefaultValue("10000") @Min(1) int maxBindings,
		@DefaultValue("24h") @NotNull Duration idleTimeout) {

	public SessionProperties {
		if (idleTimeout != null && (idleTimeout.isNegative() || idleTimeout.isZero())) {
			throw new IllegalArgumentException("gateway.session.idle-timeout must be positive");
		}
	}

}
