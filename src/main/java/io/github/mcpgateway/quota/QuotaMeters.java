package io.github.mcpgateway.quota;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.RateLimit;

/**
 * {@value #DECISIONS} (counter): each limit's decisions, by {@code server}
 * ({@code namespace/name}), {@code limit} (its name) and {@code outcome}
 * ({@code allowed}, {@code refused}, {@code unavailable}: the store could not be asked).
 * The labels are bounded by the policy file: servers times their limits times three.
 */
final class QuotaMeters {

	static final String DECISIONS = "mcp.gateway.quota.decisions";

	private final MeterRegistry registry;

	private final Map<String, Counter> counters = new ConcurrentHashMap<>();

	QuotaMeters(MeterRegistry registry) {
		this.registry = registry;
	}

	void count(McpServerPolicy server, RateLimit limit, QuotaOutcome outcome) {
		String server1 = server.qualifiedName();
		this.counters
			.computeIfAbsent(server1 + "|" + limit.name() + "|" + outcome.tag(),
					(key) -> Counter.builder(DECISIONS)
						.tags("server", server1, "limit", limit.name(), "outcome", outcome.tag())
						.description("Decisions of the limits in the policy")
						.register(this.registry))
			.increment();
	}

}
