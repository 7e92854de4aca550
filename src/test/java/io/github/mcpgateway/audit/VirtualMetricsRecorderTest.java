package io.github.mcpgateway.audit;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.github.mcpgateway.request.Decision;
import io.github.mcpgateway.virtual.VirtualAuditEvent;
import io.github.mcpgateway.virtual.VirtualAuditEvent.MemberFailure;
import io.github.mcpgateway.virtual.VirtualAuditEvent.Reason;

import static org.assertj.core.api.Assertions.assertThat;

class VirtualMetricsRecorderTest {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final VirtualMetricsRecorder recorder = new VirtualMetricsRecorder(this.registry);

	@Test
	void onVirtualRequestThenCountedByVirtualServerMethodAndDecisionWithEachFailedMember() {
		this.recorder.onVirtualRequest(event("tools/list", List.of(new MemberFailure("down", Reason.UNAVAILABLE))));
		this.recorder.onVirtualRequest(event("tools/list",
				List.of(new MemberFailure("down", Reason.UNAVAILABLE), new MemberFailure("json", Reason.LIST_FAILED))));

		assertThat(this.registry.get(GatewayMeters.VIRTUAL_REQUESTS)
			.tags("virtual_server", "test/workspace", "method", "tools/list", "decision", "allowed", "status", "200")
			.counter()
			.count()).isEqualTo(2);
		assertThat(this.registry.get(GatewayMeters.VIRTUAL_REQUEST_DURATION)
			.tags("virtual_server", "test/workspace", "method", "tools/list", "decision", "allowed")
			.timer()
			.count()).isEqualTo(2);
		assertThat(this.registry.get(GatewayMeters.VIRTUAL_MEMBER_FAILURES)
			.tags("virtual_server", "test/workspace", "member", "down", "reason", "unavailable")
			.counter()
			.count()).isEqualTo(2);
		assertThat(this.registry.get(GatewayMeters.VIRTUAL_MEMBER_FAILURES)
			.tags("member", "json", "reason", "list_failed")
			.counter()
			.count()).isEqualTo(1);
	}

	@Test
	void aMethodOutsideTheMcpSetIsOtherAndEveryMeterIsDescribed() {
		this.recorder.onVirtualRequest(event("x".repeat(300), List.of(new MemberFailure("down", Reason.UNAVAILABLE))));

		assertThat(this.registry.get(GatewayMeters.VIRTUAL_REQUESTS).tag("method", "other").counter().count())
			.isEqualTo(1);
		assertThat(this.registry.getMeters()).hasSize(3)
			.extracting(Meter::getId)
			.allSatisfy((id) -> assertThat(id.getDescription()).as(id.getName()).isNotBlank());
	}

	private static VirtualAuditEvent event(String method, List<MemberFailure> failures) {
		return new VirtualAuditEvent(Instant.parse("2026-01-14T09:14:10.201Z"), "alice", null, null, "v-1", "test",
				"workspace", "uid-workspace", method, null, Decision.ALLOWED, null, 200, Duration.ofMillis(5), true,
				null, null, failures);
	}

}
