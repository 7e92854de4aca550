package io.github.mcpgateway.virtual;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * How virtual servers serve their members' lists ({@code gateway.virtual-servers.*}).
 *
 * @param listCacheTtl how long a member's list, as the member's pipeline returned it for
 * one caller, is reused for that caller's merged lists before the member is asked again
 * ({@link MemberLists}); the member's list-changed notification ends it sooner; {@code 0}
 * turns the cache off (every merged list asks every member)
 * @param listCacheMaxSize the most memory (by the lists' JSON size) the cached lists of
 * all callers take together in one replica; past it the least used are dropped
 * @param listPageSize the most items of a merged list one answer holds; more are served
 * in pages with the virtual server's own cursors ({@link ListPages})
 */
@Validated
@ConfigurationProperties(prefix = "gateway.virtual-servers", ignoreUnknownFields = false)
public record VirtualServerProperties(@DefaultValue("30s") @NotNull Duration listCacheTtl,
		@DefaultValue("64MB") @NotNull DataSize listCacheMaxSize, @DefaultValue("500") @Min(1) int listPageSize) {

	public VirtualServerProperties {
		if (listCacheTtl != null && listCacheTtl.isNegative()) {
			throw new IllegalArgumentException("gateway.virtual-servers.list-cache-ttl must not be negative");
		}
		if (listCacheMaxSize != null && listCacheMaxSize.isNegative()) {
			throw new IllegalArgumentException("gateway.virtual-servers.list-cache-max-size must not be negative");
		}
	}

}
