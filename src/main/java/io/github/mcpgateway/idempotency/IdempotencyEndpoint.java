package io.github.mcpgateway.idempotency;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The {@code idempotency} operator endpoint ({@code /actuator/idempotency}, operators
 * only).
 *
 * <p>
 * {@code GET}: the store's counts and the number of keyed requests per outcome since
 * start. It never lists entries or keys. {@code DELETE /actuator/idempotency/{keyHash}}:
 * removes the one tombstone named by the 16-hex {@code idempotency_key_hash} of its audit
 * event, after the operator reconciled an {@code idempotency_outcome_unknown} with the
 * tool's own state; the next retry with that key then runs. Audited as
 * {@code idempotency_tombstone_cleared}. 404 when no single tombstone matches.
 * {@code DELETE /actuator/idempotency/fence}: ends the fence that follows a loss of the
 * shared store's data (ADR 0025) at once, for an operator who knows no retry of a
 * forgotten key is pending. Audited as {@code idempotency_fence_ended}. 404 when no fence
 * holds.
 */
@Endpoint(id = "idempotency")
public class IdempotencyEndpoint {

	/** The selector that names the fence rather than a tombstone's key hash. */
	static final String FENCE = "fence";

	private final IdempotencyStore store;

	private final String storeType;

	private final MeterRegistry meterRegistry;

	private final ApplicationEventPublisher events;

	private final Clock clock;

	public IdempotencyEndpoint(IdempotencyStore store, String storeType, MeterRegistry meterRegistry,
			ApplicationEventPublisher events, Clock clock) {
		this.store = store;
		this.storeType = storeType;
		this.meterRegistry = meterRegistry;
		this.events = events;
		this.clock = clock;
	}

	@ReadOperation
	public Map<String, Object> statistics() {
		IdempotencyStats stats = this.store.stats();
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("store", this.storeType);
		body.put("entries", stats.entries());
		body.put("inFlight", stats.inFlight());
		body.put("tombstones", stats.tombstones());
		body.put("replayable", stats.replayable());
		body.put("bytes", stats.bytes());
		Map<String, Long> outcomes = new LinkedHashMap<>();
		for (IdempotencyOutcome outcome : IdempotencyOutcome.values()) {
			double total = this.meterRegistry.find(IdempotencyMeters.OUTCOMES)
				.tag("outcome", outcome.tag())
				.counters()
				.stream()
				.mapToDouble(Counter::count)
				.sum();
			outcomes.put(outcome.tag(), (long) total);
		}
		body.put("outcomes", outcomes);
		StoreFence fence = this.store.fence();
		if (fence != null) {
			body.put("fence", Map.of("since", fence.since().toString(), "until", fence.until().toString(), "cause",
					fence.cause()));
		}
		return body;
	}

	@DeleteOperation
	public WebEndpointResponse<Map<String, Object>> clearTombstone(@Selector String keyHash) {
		if (FENCE.equals(keyHash)) {
			return endFence();
		}
		if (!keyHash.matches("[0-9a-f]{16}")) {
			return new WebEndpointResponse<>(Map.of("error", "keyHash must be 16 lower-case hex characters"),
					WebEndpointResponse.STATUS_BAD_REQUEST);
		}
		boolean cleared = this.store.clearTombstone(keyHash);
		Authentication operator = SecurityContextHolder.getContext().getAuthentication();
		this.events.publishEvent(
				new OperatorActionEvent(this.clock.instant(), (operator != null) ? operator.getName() : "unknown",
						"idempotency_tombstone_cleared", keyHash, cleared));
		return cleared ? new WebEndpointResponse<>(Map.of("cleared", keyHash)) : new WebEndpointResponse<>(
				Map.of("error", "no single tombstone has this key hash"), WebEndpointResponse.STATUS_NOT_FOUND);
	}

	private WebEndpointResponse<Map<String, Object>> endFence() {
		boolean ended = this.store.endFence();
		Authentication operator = SecurityContextHolder.getContext().getAuthentication();
		this.events.publishEvent(new OperatorActionEvent(this.clock.instant(),
				(operator != null) ? operator.getName() : "unknown", "idempotency_fence_ended", null, ended));
		return ended ? new WebEndpointResponse<>(Map.of("ended", FENCE))
				: new WebEndpointResponse<>(Map.of("error", "no fence holds"), WebEndpointResponse.STATUS_NOT_FOUND);
	}

}
