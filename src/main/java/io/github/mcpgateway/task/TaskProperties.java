package io.github.mcpgateway.task;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Task bindings ({@code gateway.task.*}). They live where session bindings live
 * ({@code gateway.session.store}).
 *
 * @param maxTtl the longest a binding lives: a task's own ttl counts from its creation,
 * and a task without one (or with {@code null}, unlimited) is bound this long. A keyed
 * call that created a task keeps its Idempotency-Key entry as long (at least the
 * contract's TTL)
 * @param maxBindingsPerPrincipal most live bindings and reservations of one principal;
 * past it, a call that may create a task is refused with 429 {@code task_capacity}
 * @param maxBindings most live bindings and reservations in all
 * @param maxReplySize a JSON reply to a call that may create a task is read whole up to
 * this size to find the task; a larger one is relayed unread (it cannot be a task
 * creation of any realistic size, and a task it might carry stays unbound, so unusable)
 * @param redis the {@code redis} store
 */
@Validated
@ConfigurationProperties(prefix = "gateway.task", ignoreUnknownFields = false)
public record TaskProperties(@DefaultValue("1h") @NotNull Duration maxTtl,
		@DefaultValue("100") @Min(1) int maxBindingsPerPrincipal, @DefaultValue("100000") @Min(1) int maxBindings,
		@DefaultValue("1MB") @NotNull DataSize maxReplySize, @Valid @DefaultValue Redis redis) {

	public TaskProperties {
		if (maxTtl != null && (maxTtl.isNegative() || maxTtl.isZero())) {
			throw new IllegalArgumentException("gateway.task.max-ttl must be positive");
		}
		if (maxReplySize != null && (maxReplySize.toBytes() < 1024 || maxReplySize.toBytes() > Integer.MAX_VALUE)) {
			throw new IllegalArgumentException("gateway.task.max-reply-size must be between 1KB and 2GB");
		}
	}

	/**
	 * The {@code redis} task store.
	 *
	 * @param keyPrefix prefix of every Redis key of a binding (the rest is a SHA-256 of
	 * the server identity and task id; the id itself is never stored)
	 * @param reservationLease how long a reservation holds its place if the replica that
	 * made it stops before the call's answer (it died); longer than any call takes to
	 * answer
	 */
	public record Redis(@DefaultValue("{mcp-gateway}:task:") @NotNull String keyPrefix,
			@DefaultValue("10m") @NotNull Duration reservationLease) {

		public Redis {
			if (keyPrefix != null && keyPrefix.isEmpty()) {
				throw new IllegalArgumentException("gateway.task.redis.key-prefix must not be empty");
			}
			if (reservationLease != null && (reservationLease.isNegative() || reservationLease.isZero())) {
				throw new IllegalArgumentException("gateway.task.redis.reservation-lease must be positive");
			}
		}

	}

}
