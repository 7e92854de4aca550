package io.github.mcpgateway.policy;

import java.time.Duration;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Where the policy file is and how often it is re-read ({@code gateway.policy.*}).
 *
 * @param location a file path ({@code /etc/mcp-gateway/policy.yaml}, {@code file:} prefix
 * optional) or a {@code classpath:} resource
 * @param reloadInterval how often the file is re-read; a changed file takes effect within
 * this interval
 * @param toolListMaxSize the largest JSON {@code tools/list} reply the gateway holds to
 * filter; a larger one is withheld (502 {@code upstream_reply_unfilterable}) rather than
 * passed unfiltered
 */
@Validated
@ConfigurationProperties(prefix = "gateway.policy", ignoreUnknownFields = false)
public record PolicyProperties(@NotBlank String location, @DefaultValue("5s") @NotNull Duration reloadInterval,
		@DefaultValue("8MB") @NotNull DataSize toolListMaxSize) {

	public PolicyProperties {
		if (reloadInterval != null && (reloadInterval.isNegative() || reloadInterval.isZero())) {
			throw new IllegalArgumentException("gateway.policy.reload-interval must be positive");
		}
		if (toolListMaxSize != null && (toolListMaxSize.toKilobytes() < 1
				|| toolListMaxSize.toBytes() > DataSize.ofGigabytes(1).toBytes())) {
			throw new IllegalArgumentException("gateway.policy.tool-list-max-size must be between 1KB and 1GB");
		}
	}

}
