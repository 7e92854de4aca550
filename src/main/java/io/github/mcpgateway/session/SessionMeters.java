package io.github.mcpgateway.session;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.event.EventListener;

/**
 * Counts {@link SessionEvent}s and shows the size of the binding table (the memory store;
 * Redis does not count its bindings).
 */
class SessionMeters {

	/**
	 * Counter of session events, tagged {@code event} (bound, ended, dropped,
	 * rejected_unknown, ...).
	 */
	static final String EVENTS = "mcp.gateway.sessions.events";

	/** Gauge: bindings in the table of the memory store. */
	static final String ACTIVE = "mcp.gateway.sessions.active";

	private final Map<SessionEvent.Type, Counter> events = new EnumMap<>(SessionEvent.Type.class);

	SessionMeters(MeterRegistry meterRegistry, SessionStore store) {
		if (store.size() >= 0) {
			Gauge.builder(ACTIVE, store, SessionStore::size).register(meterRegistry);
		}
		for (SessionEvent.Type type : SessionEvent.Type.values()) {
			this.events.put(type, meterRegistry.counter(EVENTS, "event", type.name().toLowerCase(Locale.ROOT)));
		}
	}

	@EventListener
	void onSessionEvent(SessionEvent event) {
		this.events.get(event.type()).increment();
	}

}
