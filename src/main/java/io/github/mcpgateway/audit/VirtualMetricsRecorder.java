package io.github.mcpgateway.audit;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.springframework.util.Assert;

import io.github.mcpgateway.virtual.VirtualAuditEvent;
import io.github.mcpgateway.virtual.VirtualAuditListener;

/**
 * Counts and times the requests virtual servers answered, and the members that failed
 * them, from their {@link VirtualAuditEvent}s. Tags are bounded as the request meters'
 * ({@link RequestMetricsRecorder}): the virtual server's {@code namespace/name} and a
 * member's prefix come from the policy, methods from the MCP method set, reasons from
 * {@link VirtualAuditEvent.Reason}; never a session, a tool or an identity.
 */
public class VirtualMetricsRecorder implements VirtualAuditListener {

	private final MeterRegistry meterRegistry;

	private final ConcurrentMap<List<String>, Counter> counters = new ConcurrentHashMap<>();

	private final ConcurrentMap<List<String>, Timer> timers = new ConcurrentHashMap<>();

	public VirtualMetricsRecorder(MeterRegistry meterRegistry) {
		Assert.notNull(meterRegistry, "meterRegistry must not be null");
		this.meterRegistry = meterRegistry;
	}

	@Override
	public void onVirtualRequest(VirtualAuditEvent event) {
		String virtual = event.qualifiedName();
		String method = RequestMetricsRecorder.methodTag(event.method());
		String decision = event.decision().tag();
		this.counters.computeIfAbsent(
				List.of(GatewayMeters.VIRTUAL_REQUESTS, virtual, method, decision, Integer.toString(event.status())),
				(key) -> Counter.builder(GatewayMeters.VIRTUAL_REQUESTS)
					.description("Requests a virtual server answered, routed or fanned out to its members")
					.tags("virtual_server", key.get(1), "method", key.get(2), "decision", key.get(3), "status",
							key.get(4))
					.register(this.meterRegistry))
			.increment();
		this.timers
			.computeIfAbsent(List.of(virtual, method, decision),
					(key) -> Timer.builder(GatewayMeters.VIRTUAL_REQUEST_DURATION)
						.description("Time a virtual server spent on a request, its members included")
						.tags("virtual_server", key.get(0), "method", key.get(1), "decision", key.get(2))
						.register(this.meterRegistry))
			.record(event.duration());
		for (VirtualAuditEvent.MemberFailure failure : event.memberFailures()) {
			this.counters
				.computeIfAbsent(
						List.of(GatewayMeters.VIRTUAL_MEMBER_FAILURES, virtual, failure.member(),
								failure.reason().tag()),
						(key) -> Counter.builder(GatewayMeters.VIRTUAL_MEMBER_FAILURES)
							.description("Members that failed a virtual server's request: left out of a merged "
									+ "list or the session, or unreachable")
							.tags("virtual_server", key.get(1), "member", key.get(2), "reason", key.get(3))
							.register(this.meterRegistry))
				.increment();
		}
	}

}
