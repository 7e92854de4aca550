package io.github.mcpgateway.audit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.springframework.util.Assert;

import io.github.mcpgateway.request.AuditContribution;
import io.github.mcpgateway.request.McpAuditEvent;
import io.github.mcpgateway.request.McpAuditListener;

/**
 * Counts and times governed requests from their {@link McpAuditEvent}s. Tags are bounded:
 * server names come from the policy, methods from the MCP method set (anything else is
 * counted as {@code other}), never from identities, keys or payloads.
 */
public class RequestMetricsRecorder implements McpAuditListener {

	private static final java.util.Set<String> KNOWN_METHODS = java.util.Set.of("initialize", "ping", "tools/list",
			"tools/call", "resources/list", "resources/read", "resources/templates/list", "resources/subscribe",
			"resources/unsubscribe", "prompts/list", "prompts/get", "completion/complete", "logging/setLevel",
			"notifications/initialized", "notifications/cancelled", "notifications/progress",
			"notifications/roots/list_changed", "tasks/get", "tasks/result", "tasks/list", "tasks/cancel",
			"tasks/update", "subscriptions/listen", "server/discover", "response", "GET", "DELETE");

	private final MeterRegistry meterRegistry;

	private final ConcurrentMap<List<String>, Counter> counters = new ConcurrentHashMap<>();

	private final ConcurrentMap<List<String>, Timer> timers = new ConcurrentHashMap<>();

	public RequestMetricsRecorder(MeterRegistry meterRegistry) {
		Assert.notNull(meterRegistry, "meterRegistry must not be null");
		this.meterRegistry = meterRegistry;
	}

	@Override
	public void onRequest(McpAuditEvent event) {
		String method = methodTag(event.method());
		String decision = event.decision().tag();
		counter(GatewayMeters.REQUESTS, "namespace", event.namespace(), "server", event.server(), "method", method,
				"decision", decision, "status", Integer.toString(event.status()))
			.increment();
		this.timers
			.computeIfAbsent(List.of(event.namespace(), event.server(), method, decision),
					(key) -> Timer.builder(GatewayMeters.REQUEST_DURATION)
						.tags("namespace", key.get(0), "server", key.get(1), "method", key.get(2), "decision",
								key.get(3))
						.register(this.meterRegistry))
			.record(event.duration());
		for (AuditContribution contribution : event.contributions()) {
			contribution.countOutcome((name, outcome) -> counter(name, "namespace", event.namespace(), "server",
					event.server(), "outcome", outcome)
				.increment());
		}
	}

	/** The {@code method} tag of {@code method}: an MCP method, else {@code other}. */
	static String methodTag(String method) {
		return KNOWN_METHODS.contains(method) ? method : "other";
	}

	/**
	 * The counter of a name and tags, registered on first use and looked up in a map
	 * afterwards (the tags are bounded, see above).
	 */
	private Counter counter(String name, String... tags) {
		List<String> key = new ArrayList<>(tags.length + 1);
		key.add(name);
		key.addAll(Arrays.asList(tags));
		return this.counters.computeIfAbsent(key, (k) -> this.meterRegistry.counter(name, tags));
	}

}
