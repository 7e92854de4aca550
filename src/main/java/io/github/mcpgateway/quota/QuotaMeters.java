package io.github.mcpgateway.quota;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.github.mcpgateway.policy.RateLimit;

/**
 * {@value #DECISIONS} (counter): each limit's decisions, by {@code server}
 * ({@code namespace/name} of the server, or of the virtual server, whose limit it is),
 * {@code limit} (its name) and {@code outcome} ({@code allowed}, {@code refused},
 * {@code unavailable}: the store could not be asked). The labels are bounded by the
 * policy file: servers and virtual servers times their limits times three.
 */
final class QuotaMeters {

	static final String DECISIONS = "mcp.gateway.quota.decisions";

	private final MeterRegistry registry;

	private final Map<String, Counter> counters = new ConcurrentHashMap<>();

	QuotaMeters(MeterRegistry registry) {
		this.registry = registry;
	}

	/** Counts one decision of {@code server}'s ({@code namespace/name}) {@code limit}. */
	void count(String server, RateLimit limit, QuotaOutcome outcome) {
		this.counters
			.computeIfAbsent(server + "|" + limit.name() + "|" + outcome.tag(),
					(key) -> Counter.builder(DECISIONS)
						.tags("server", server, "limit", limit.name(), "outcome", outcome.tag())
						.description("Decisions of the limits in the policy")
						.register(this.registry))
			.increment();
	}

}
