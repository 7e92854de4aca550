package io.github.mcpgateway.stdio;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.policy.McpServerPolicy;

/**
 * What the stdio sessions report: meters, the audit event of each process start and end
 * ({@link StdioProcessEvent}) and the log line of an end that is not the gateway's own
 * doing.
 */
final class StdioEvents {

	private static final Log logger = LogFactory.getLog(StdioEvents.class);

	/**
	 * Counter of process starts, tagged {@code namespace}, {@code server},
	 * {@code result=started|failed}.
	 */
	static final String STARTS = "mcp.gateway.stdio.starts";

	/**
	 * Counter of process ends, tagged {@code namespace}, {@code server}, {@code cause}.
	 */
	static final String ENDS = "mcp.gateway.stdio.ends";

	/**
	 * Counter of new sessions refused by a cap, tagged {@code namespace}, {@code server},
	 * {@code reason=process_capacity|processes_per_principal}.
	 */
	static final String REFUSALS = "mcp.gateway.stdio.refusals";

	/**
	 * Counter of the processes' own messages dropped because the client's stream did not
	 * take them, tagged {@code namespace}, {@code server}; counted when the session ends.
	 */
	static final String DROPPED = "mcp.gateway.stdio.messages.dropped";

	/** Gauge: processes running, tagged {@code namespace}, {@code server}. */
	static final String PROCESSES = "mcp.gateway.stdio.processes";

	private final MeterRegistry meterRegistry;

	private final ApplicationEventPublisher publisher;

	private final GatewayClock clock;

	private final ConcurrentMap<List<String>, Counter> counters = new ConcurrentHashMap<>();

	private final ConcurrentMap<List<String>, AtomicInteger> running = new ConcurrentHashMap<>();

	StdioEvents(MeterRegistry meterRegistry, ApplicationEventPublisher publisher, GatewayClock clock) {
		this.meterRegistry = meterRegistry;
		this.publisher = publisher;
		this.clock = clock;
	}

	/**
	 * A process started.
	 * @param sessionId the session it serves alone, {@code null} for a shared process
	 */
	void started(StdioChild child, @Nullable String sessionId, @Nullable String human) {
		McpServerPolicy server = child.server();
		counter(STARTS, server, "result", "started").increment();
		running(server).incrementAndGet();
		publish(child, StdioProcessEvent.Type.STARTED, sessionId, human);
	}

	void startFailed(McpServerPolicy server) {
		counter(STARTS, server, "result", "failed").increment();
	}

	void refused(McpServerPolicy server, String reason) {
		counter(REFUSALS, server, "reason", reason).increment();
	}

	/** A process ended, for {@link StdioChild#endCause()}. */
	void ended(StdioChild child, @Nullable String sessionId, @Nullable String human) {
		String cause = child.endCause();
		StdioEnd end = child.end();
		Integer exitCode = (end != null) ? end.exitCode() : null;
		McpServerPolicy server = child.server();
		counter(ENDS, server, "cause", cause).increment();
		running(server).decrementAndGet();
		if (end != null && end.reason() != StdioEnd.Reason.STOPPED && logger.isInfoEnabled()) {
			logger.info("The stdio server " + server.qualifiedName() + " ended a process itself (" + cause
					+ ((exitCode != null) ? ", exit status " + exitCode : "") + ")");
		}
		publish(child, StdioProcessEvent.Type.ENDED, sessionId, human);
	}

	/** A session ended whose client's stream dropped messages. */
	void dropped(McpServerPolicy server, long messages) {
		if (messages > 0) {
			counter(DROPPED, server, null, null).increment(messages);
		}
	}

	/** The gauge of the server's running processes, registered on its first start. */
	private AtomicInteger running(McpServerPolicy server) {
		return this.running.computeIfAbsent(List.of(server.namespace(), server.name()), (key) -> {
			AtomicInteger count = new AtomicInteger();
			Gauge.builder(PROCESSES, count, AtomicInteger::get)
				.tags("namespace", key.get(0), "server", key.get(1))
				.register(this.meterRegistry);
			return count;
		});
	}

	private void publish(StdioChild child, StdioProcessEvent.Type type, @Nullable String sessionId,
			@Nullable String human) {
		boolean ended = type == StdioProcessEvent.Type.ENDED;
		StdioEnd end = child.end();
		this.publisher.publishEvent(
				new StdioProcessEvent(this.clock.instant(), type, child.server().qualifiedName(), sessionId, human,
						ended ? child.endCause() : null, (ended && end != null) ? end.exitCode() : null, child.pid()));
	}

	private Counter counter(String name, McpServerPolicy server, @Nullable String tag, @Nullable String value) {
		List<String> key = (tag != null) ? List.of(name, server.namespace(), server.name(), tag, value)
				: List.of(name, server.namespace(), server.name());
		return this.counters.computeIfAbsent(key, (unused) -> {
			Counter.Builder builder = Counter.builder(name)
				.tags("namespace", server.namespace(), "server", server.name());
			return ((tag != null) ? builder.tag(tag, value) : builder).register(this.meterRegistry);
		});
	}

}
