package io.github.mcpgateway.idempotency;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import io.github.mcpgateway.error.RefusalStatus;

/**
 * The Idempotency-Key store ({@code gateway.idempotency.*}). Defaults are the limits of
 * the contract (ADR table "Limits"); raising them raises the worst-case memory
 * ({@code max-entries × max-reply-size}, 8 MiB by default).
 *
 * @param store which store keeps the entries: {@code memory} (per process, the default)
 * or {@code redis} (shared by every replica pointed at the same Redis)
 * @param limits the limits and quotas of the {@code memory} store (per process)
 * @param redis the {@code redis} store; its limits apply to all replicas together
 * @param eventStreams what a keyed {@code tools/call} answered with an event stream
 * leaves: {@code deliver-once} (the contract's rule: never replayed) or {@code replay}
 * (its one final response is stored and replayed; docs/adr/0008)
 * @param requestHash whether the request hash covers the JSON-RPC id:
 * {@code with-jsonrpc-id} (the contract's rule) or {@code without-jsonrpc-id} (a retry
 * through an SDK, which numbers every request anew, gets the replay with its own id;
 * docs/adr/0008)
 * @param refusalStatus how the contract's refusals of a keyed request are answered:
 * {@code http} (the statuses the contract names: 400, 409, 429, 503) or {@code json-rpc}
 * (HTTP 200 with the same JSON-RPC error, which MCP SDKs raise as a protocol error;
 * docs/adr/0014)
 */
@Validated
@ConfigurationProperties(prefix = "gateway.idempotency", ignoreUnknownFields = false)
public record IdempotencyProperties(@DefaultValue("memory") @NotNull StoreType store,
		@Valid @DefaultValue Limits limits, @Valid @DefaultValue Redis redis,
		@DefaultValue("deliver-once") @NotNull EventStreams eventStreams,
		@DefaultValue("with-jsonrpc-id") @NotNull RequestHash requestHash,
		@DefaultValue("http") @NotNull RefusalStatus refusalStatus) {

	/** The limits of the configured store. */
	public Limits activeLimits() {
		return (this.store == StoreType.REDIS) ? this.redis.limits() : this.limits;
	}

	/** What a keyed call answered with an event stream leaves in the store. */
	public enum EventStreams {

		/** Delivered once, never replayed: a retry gets {@code not_replayable}. */
		DELIVER_ONCE,
		/**
		 * A stream that ended cleanly with exactly one JSON-RPC response (for the
		 * request's id) and no server-to-client request is stored as that response.
		 */
		REPLAY

	}

	/** What the request hash covers. */
	public enum RequestHash {

		/** Key, method, tool, JSON-RPC id and canonical params (the contract). */
		WITH_JSONRPC_ID,
		/**
		 * Key, method, tool and canonical params; a replay carries the retry's id.
		 */
		WITHOUT_JSONRPC_ID

	}

	/** Where entries live. */
	public enum StoreType {

		/** In this gateway process; lost on restart, not shared between replicas. */
		MEMORY,
		/**
		 * In Redis ({@code spring.data.redis.*}), shared by every replica using the same
		 * prefix.
		 */
		REDIS

	}

	/**
	 * @param ttl how long a completed reply or a tombstone is kept, counted from
	 * completion
	 * @param maxEntries entries in the store at most
	 * @param maxInFlight in-flight entries at most
	 * @param maxEntriesPerScope entries per scope (principal and session)
	 * @param maxInFlightPerScope in-flight entries per scope
	 * @param maxEntriesPerPrincipal entries per principal across its sessions
	 * @param maxInFlightPerPrincipal in-flight entries per principal across its sessions
	 * @param maxTombstonesPerScope tombstones per scope, in-flight reservations included
	 * @param maxEntriesPerHuman entries per human across all its agents, teams and
	 * sessions; by default half of {@code maxEntries}
	 * @param maxInFlightPerHuman in-flight entries per human across all its agents, teams
	 * and sessions; by default half of {@code maxInFlight}
	 * @param maxTombstonesPerHuman tombstones per human across all its agents, teams and
	 * sessions, in-flight reservations included; by default an eighth of
	 * {@code maxEntries}
	 * @param maxReplySize largest reply body stored for replay
	 */
	public record Limits(@DefaultValue("5m") @NotNull Duration ttl, @DefaultValue("256") @Min(1) int maxEntries,
			@DefaultValue("32") @Min(1) int maxInFlight, @DefaultValue("32") @Min(1) int maxEntriesPerScope,
			@DefaultValue("4") @Min(1) int maxInFlightPerScope, @DefaultValue("64") @Min(1) int maxEntriesPerPrincipal,
			@DefaultValue("8") @Min(1) int maxInFlightPerPrincipal,
			@DefaultValue("8") @Min(1) int maxTombstonesPerScope, @Min(1) Integer maxEntriesPerHuman,
			@Min(1) Integer maxInFlightPerHuman, @Min(1) Integer maxTombstonesPerHuman,
			@DefaultValue("32KB") @NotNull DataSize maxReplySize) {

		/** The contract's defaults, and the per-human budgets of ADR 0019. */
		public static Limits defaults() {
			return new Limits(Duration.ofMinutes(5), 256, 32, 32, 4, 64, 8, 8, null, null, null,
					DataSize.ofKilobytes(32));
		}

		/**
		 * The per-human budgets, absent ones derived from the store-wide caps. A
		 * per-human budget must stay below its store-wide cap (when that cap is above 1):
		 * one human, whose agent part the client often chooses, must not be able to fill
		 * it for everyone (ADR 0019).
		 */
		public Limits {
			maxEntriesPerHuman = perHuman("max-entries-per-human", maxEntriesPerHuman, maxEntries, maxEntries / 2);
			maxInFlightPerHuman = perHuman("max-in-flight-per-human", maxInFlightPerHuman, maxInFlight,
					maxInFlight / 2);
			maxTombstonesPerHuman = perHuman("max-tombstones-per-human", maxTombstonesPerHuman, maxEntries,
					maxEntries / 8);
			if (ttl != null && (ttl.isNegative() || ttl.isZero())) {
				throw new IllegalArgumentException("gateway.idempotency.limits.ttl must be positive");
			}
			if (maxReplySize != null && (maxReplySize.toBytes() < 1 || maxReplySize.toBytes() > 16 * 1024 * 1024)) {
				throw new IllegalArgumentException("gateway.idempotency.limits.max-reply-size must be 1B to 16MB");
			}
		}

		private static Integer perHuman(String name, @Nullable Integer configured, int storeWide, int derived) {
			int ceiling = Math.max(1, storeWide - 1);
			if (configured == null) {
				return Math.max(1, Math.min(derived, ceiling));
			}
			if (configured > ceiling) {
				throw new IllegalArgumentException("gateway.idempotency.limits." + name + " must be at most " + ceiling
						+ ", below its store-wide cap, so that one human cannot fill it for every caller");
			}
			return configured;
		}

	}

	/**
	 * The shared store.
	 *
	 * @param keyPrefix prefix of every Redis key; must contain one {@code {hash tag}} so
	 * that all keys share a Redis Cluster slot (the scripts touch several keys
	 * atomically)
	 * @param lease how long an in-flight entry survives without its replica renewing it;
	 * after it lapses (the replica died mid-call) the entry becomes an outcome-unknown
	 * tombstone
	 * @param leaseRenewInterval how often a replica renews the leases of its in-flight
	 * entries; well under {@code lease}
	 * @param limits limits and quotas for all replicas together
	 * @param waitForReplicas how many Redis replicas must have a key's {@code begin}
	 * (Redis {@code WAIT}) before its call is dispatched; {@code 0} (the default) waits
	 * for none (ADR 0025)
	 * @param waitTimeout how long to wait for them; a call whose {@code begin} they did
	 * not acknowledge in time is refused with {@code idempotency_unavailable}
	 */
	public record Redis(@DefaultValue("{mcp-gateway}:idempotency:") @NotNull String keyPrefix,
			@DefaultValue("30s") @NotNull Duration lease, @DefaultValue("10s") @NotNull Duration leaseRenewInterval,
			@Valid @DefaultValue Limits limits, @DefaultValue("0") @Min(0) int waitForReplicas,
			@DefaultValue("100ms") @NotNull Duration waitTimeout) {

		/** Waits for no replica. */
		public Redis(String keyPrefix, Duration lease, Duration leaseRenewInterval, Limits limits) {
			this(keyPrefix, lease, leaseRenewInterval, limits, 0, Duration.ofMillis(100));
		}

		@ConstructorBinding
		public Redis {
			if (keyPrefix != null && !keyPrefix.matches("[^{}]*\\{[^{}]+\\}[^{}]*")) {
				throw new IllegalArgumentException(
						"gateway.idempotency.redis.key-prefix must contain exactly one {hash tag}, such as {mcp-gateway}");
			}
			if (lease != null && leaseRenewInterval != null && (leaseRenewInterval.isZero()
					|| leaseRenewInterval.isNegative() || leaseRenewInterval.multipliedBy(2).compareTo(lease) > 0)) {
				throw new IllegalArgumentException(
						"gateway.idempotency.redis.lease-renew-interval must be positive and at most half the lease");
			}
			if (waitTimeout != null && (waitTimeout.isNegative() || waitTimeout.isZero())) {
				throw new IllegalArgumentException("gateway.idempotency.redis.wait-timeout must be positive");
			}
		}

	}

}
