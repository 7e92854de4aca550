package io.github.mcpgateway.task;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The task stage's meters. Request outcomes are counted from the audit events
 * ({@link #OUTCOMES}, tagged {@code namespace}, {@code server} and the bounded
 * {@link TaskOutcome} tag); the live bindings are a gauge over the store.
 */
public final class TaskMeters {

	/** Counter of task-stage outcomes: bindings created and refused, task requests. */
	public static final String OUTCOMES = "mcp.gateway.tasks";

	/** Gauge of live task bindings ({@code NaN} while the store cannot count). */
	public static final String ACTIVE = "mcp.gateway.tasks.active";

	TaskMeters(MeterRegistry meterRegistry, TaskStore store) {
		Gauge.builder(ACTIVE, store, (tasks) -> {
			long size = tasks.size();
			return (size < 0) ? Double.NaN : size;
		}).tag("store", store.type()).register(meterRegistry);
	}

}
