package io.github.mcpgateway.session;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import io.github.mcpgateway.revocation.RevocationSync;

/**
 * The {@code sessions} operator endpoint ({@code /actuator/sessions}, operators only):
 * the store and (memory store) the size and bound of the binding table, session events
 * since start, and the revocation sync's state. It never lists session ids.
 */
@Endpoint(id = "sessions")
public class SessionsEndpoint {

	private final SessionStore store;

	private final SessionProperties properties;

	private final RevocationSync revocations;

	private final MeterRegistry meterRegistry;

	private final Clock clock;

	SessionsEndpoint(SessionStore store, SessionProperties properties, RevocationSync revocations,
			MeterRegistry meterRegistry, Clock clock) {
		this.store = store;
		this.properties = properties;
		this.revocations = revocations;
		this.meterRegistry = meterRegistry;
		this.clock = clock;
	}

	@ReadOperation
	public Map<String, Object> sessions() {
		Map<String, Object> bindings = new LinkedHashMap<>();
		bindings.put("store", this.store.type());
		long size = this.store.size();
		if (size >= 0) {
			bindings.put("active", size);
			bindings.put("max", this.properties.maxBindings());
		}
		bindings.put("idleTimeout", this.properties.idleTimeout().toString());
		Map<String, Long> events = new LinkedHashMap<>();
		for (SessionEvent.Type type : SessionEvent.Type.values()) {
			String tag = type.name().toLowerCase(java.util.Locale.ROOT);
			events.put(tag,
					(long) this.meterRegistry.find(SessionMeters.EVENTS)
						.tag("event", tag)
						.counters()
						.stream()
						.mapToDouble(Counter::count)
						.sum());
		}
		bindings.put("events", events);
		Map<String, Object> revocation = new LinkedHashMap<>();
		revocation.put("enabled", this.revocations.isEnabled());
		Instant last = this.revocations.lastGoodSync();
		revocation.put("synced", this.revocations.hasSynced());
		if (this.revocations.isEnabled() && last != null) {
			revocation.put("lastGoodSync", last.toString());
			revocation.put("ageMillis", Duration.between(last, this.clock.instant()).toMillis());
		}
		revocation.put("revokedSessions", this.revocations.current().sessions().size());
		revocation.put("revokedPrincipalRules", this.revocations.current().principals().size());
		if (this.revocations.lastError() != null) {
			revocation.put("lastError", this.revocations.lastError());
		}
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("bindings", bindings);
		body.put("revocation", revocation);
		return body;
	}

}
