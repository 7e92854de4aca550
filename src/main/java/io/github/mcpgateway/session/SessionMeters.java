package io.github.mcpgateway.session;

import java.util.Locale;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.event.EventListener;

/** Counts {@link SessionEvent}s and shows the size of the binding table. */
class SessionMeters {

	/**
	 * Counter of session events, tagged {@code event} (bound, ended, dropped,
	 * rejected_unknown, ...).
	 */
	static final String EVENTS = "mcp.gateway.sessions.events";

	/** Gauge: bindings in the table. */
	static final String ACTIVE = "mcp.gateway.sessions.active";

	private final MeterRegistry meterRegistry;

	SessionMeters(MeterRegistry meterRegistry, SessionRegistry registry) {
		this.meterRegistry = meterRegistry;
		Gauge.builder(ACTIVE, registry, SessionRegistry::size).register(meterRegistry);
	}

	@EventListener
	void onSessionEvent(SessionEvent event) {
		this.meterRegistry.counter(EVENTS, "event", event.type().name().toLowerCase(Locale.ROOT)).increment();
	}

}
