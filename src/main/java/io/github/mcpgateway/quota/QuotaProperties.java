package io.github.mcpgateway.quota;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code gateway.quota.*}: where the buckets of the policy's {@code limits} live and what
 * a request meets when they cannot be read. The limits themselves are in the policy file.
 *
 * @param store {@code memory} (the default): this replica's own buckets, for one replica;
 * {@code redis}: buckets every replica shares, on the connection of
 * {@code spring.data.redis.*}
 * @param onStoreFailure {@code refuse} (the default): a request a limit applies to is
 * refused with 503 {@code quota_store_unavailable} while the store cannot be asked, so no
 * limit is exceeded; {@code allow}: it goes on unlimited (and is counted
 * {@code unavailable}), for limits that protect less than the availability they cost
 * @param redis the {@code redis} store
 */
@Validated
@ConfigurationProperties(prefix = "gateway.quota", ignoreUnknownFields = false)
public record QuotaProperties(@DefaultValue("memory") @NotNull Store store,
		@DefaultValue("refuse") @NotNull OnStoreFailure onStoreFailure, @Valid @DefaultValue Redis redis) {

	/** Where the buckets live. */
	public enum Store {

		/** In this replica. */
		MEMORY,
		/** In Redis, shared by every replica. */
		REDIS

	}

	/** What a request a limit applies to meets while the store cannot be asked. */
	public enum OnStoreFailure {

		/** 503 {@code quota_store_unavailable}: fail closed. */
		REFUSE,
		/** It goes on without the limit: fail open. */
		ALLOW

	}

	/**
	 * The {@code redis} store.
	 *
	 * @param keyPrefix prefix of every bucket's key (the rest is a SHA-256 of the server,
	 * the limit and who shares the bucket; no identity is stored); its hash tag keeps one
	 * request's buckets in one cluster slot, as one script needs
	 */
	public record Redis(@DefaultValue("{mcp-gateway}:quota:") @NotNull String keyPrefix) {

		public Redis {
			if (keyPrefix != null && keyPrefix.isEmpty()) {
				throw new IllegalArgumentException("gateway.quota.redis.key-prefix must not be empty");
			}
		}

	}

}
