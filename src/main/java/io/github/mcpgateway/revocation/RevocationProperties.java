package io.github.mcpgateway.revocation;

import java.time.Duration;
import java.util.Map;

import jakarta.validation.constraints.NotNull;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where revocations come from ({@code gateway.revocation.*}).
 *
 * @param source a file path ({@code file:} prefix optional) or an {@code http(s)://} URL
 * that returns the revocation JSON; when unset, nothing is revoked and the sync is off
 * @param pollInterval how often the source is read; a revocation takes effect within it
 * @param timeout how long one read of an HTTP source may take
 * @param headers request headers sent to an HTTP source, for example an
 * {@code Authorization} for the platform API
 */
@Validated
@ConfigurationProperties(prefix = "gateway.revocation", ignoreUnknownFields = false)
public record RevocationProperties(@Nullable String source, @DefaultValue("500ms") @NotNull Duration pollInterval,
		@DefaultValue("2s") @NotNull Duration timeout, @DefaultValue Map<String, String> headers) {

	public RevocationProperties {
		if (pollInterval != null && (pollInterval.isNegative() || pollInterval.isZero())) {
			throw new IllegalArgumentException("gateway.revocation.poll-interval must be positive");
		}
		if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
			throw new IllegalArgumentException("gateway.revocation.timeout must be positive");
		}
		headers = (headers != null) ? Map.copyOf(headers) : Map.of();
	}

}
