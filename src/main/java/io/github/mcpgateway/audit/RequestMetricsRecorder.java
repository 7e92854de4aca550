package io.github.mcpgateway.audit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import org.springframework.context.event.EventListener;
import org.springframework.util.Assert;

/**
 * Counts and times governed requests from their {@link McpAuditEvent}s. Tags are bounded:
 * server names come from the policy, methods from the MCP method set (anything else is
 * counted as {@code other}), never from identities, keys or payloads.
 */
public class RequestMetricsRecorder {

	private static final java.util.Set<String> KNOWN_METHODS = java.util.Set.of("initialize", "ping", "tools/list",
			"tools/call", "resources/list", "resources/read", "resources/templates/list", "resources/subscribe",
			"resources/unsubscribe", "prompts/list", "prompts/get", "completion/complete", "logging/setLevel",
			"notifications/initialized", "notifications/cancelled", "notifications/progress",
			"notifications/roots/list_changed", "response", "GET", "DELETE");

	private final MeterRegistry meterRegistry;

	public RequestMetricsRecorder(MeterRegistry meterRegistry) {
		Assert.notNull(meterRegistry, "meterRegistry must not be null");
		this.meterRegistry = meterRegistry;
	}

	@EventListener
	public void onAuditEvent(McpAuditEvent event) {
		String method = KNOWN_METHODS.contains(event.method()) ? event.method() : "other";
		Tags tags = Tags.of("namespace", event.namespace(), "server", event.server(), "method", method, "decision",
				event.decision());
		this.meterRegistry.counter(GatewayMeters.REQUESTS, tags.and("status", Integer.toString(event.status())))
			.increment();
		this.meterRegistry.timer(GatewayMeters.REQUEST_DURATION, tags).record(event.duration());
		if (event.idempotency() != null) {
			this.meterRegistry
				.counter(GatewayMeters.IDEMPOTENCY, "namespace", event.namespace(), "server", event.server(), "outcome",
						event.idempotency())
				.increment();
		}
	}

}
