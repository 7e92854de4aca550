package io.github.mcpgateway.grant;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.github.mcpgateway.policy.GrantDecision;
import io.github.mcpgateway.policy.McpServerPolicy;

/**
 * {@value #ERRORS} (counter): grant conditions whose evaluation on a request failed and
 * so counted as false, by {@code server} ({@code namespace/name}), {@code grant} (its
 * name, or {@code grants[i]}) and {@code result} ({@code missing_field},
 * {@code wrong_type}, {@code not_boolean}, {@code budget_exceeded}, {@code failed}).
 * Bounded by the policy file. Only the request path counts; explain and validate do not.
 */
public final class ConditionErrors {

	static final String ERRORS = "mcp.gateway.policy.condition.errors";

	private final MeterRegistry registry;

	private final Map<String, Counter> counters = new ConcurrentHashMap<>();

	public ConditionErrors(MeterRegistry registry) {
		this.registry = registry;
	}

	void count(McpServerPolicy server, GrantDecision decision) {
		for (GrantDecision.Evaluated evaluated : decision.conditions()) {
			if (evaluated.result().isError()) {
				String name = server.qualifiedName();
				String result = evaluated.result().label();
				this.counters
					.computeIfAbsent(name + "|" + evaluated.label() + "|" + result,
							(key) -> Counter.builder(ERRORS)
								.tags("server", name, "grant", evaluated.label(), "result", result)
								.description("Grant conditions whose evaluation failed (counted as false)")
								.register(this.registry))
					.increment();
			}
		}
	}

}
