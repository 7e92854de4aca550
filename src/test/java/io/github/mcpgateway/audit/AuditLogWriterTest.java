package io.github.mcpgateway.audit;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.idempotency.IdempotencyOutcome;
import io.github.mcpgateway.idempotency.KeyedOutcome;
import io.github.mcpgateway.policy.UpstreamAuth;
import io.github.mcpgateway.quota.LimitReached;
import io.github.mcpgateway.request.Decision;
import io.github.mcpgateway.request.McpAuditEvent;
import io.github.mcpgateway.request.PipelineObserver;
import io.github.mcpgateway.task.TaskHandling;
import io.github.mcpgateway.task.TaskOutcome;
import io.github.mcpgateway.upstreamauth.CredentialHandling;
import io.github.mcpgateway.upstreamauth.CredentialOutcome;
import io.github.mcpgateway.virtual.VirtualAuditEvent;

import static org.assertj.core.api.Assertions.assertThat;

class AuditLogWriterTest {

	private final AuditLogWriter writer = new AuditLogWriter(JsonMapper.builder().build());

	@Test
	void jsonWhenEveryCapabilityContributedThenTheirFieldsFollowTheCoreInOneOrder() {
		McpAuditEvent event = event(Decision.REFUSED, "rate_limited", new LimitReached("per-human"),
				List.of(new KeyedOutcome(IdempotencyOutcome.REJECTED, "0123456789abcdef"),
						new CredentialHandling(UpstreamAuth.Mode.TOKEN_EXCHANGE, CredentialOutcome.CACHED),
						new TaskHandling(TaskOutcome.NOT_FOUND, "fedcba9876543210", "echo")),
				new PipelineObserver.TraceIds("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"));

		assertThat(this.writer.json(event)).isEqualTo("{\"time\":\"2026-01-14T09:14:10.201Z\",\"human\":\"alice\","
				+ "\"agent\":\"agent-1\",\"team\":\"blue\",\"session_id\":\"s-1\",\"namespace\":\"test\","
				+ "\"server\":\"echo\",\"server_uid\":\"uid-echo\",\"method\":\"tools/call\",\"tool\":\"echo\","
				+ "\"decision\":\"refused\",\"error_code\":\"rate_limited\",\"reason\":\"per-human\",\"status\":200,"
				+ "\"duration_ms\":13,\"dispatched\":false,\"idempotency\":\"rejected\","
				+ "\"idempotency_key_hash\":\"0123456789abcdef\",\"upstream_auth\":\"token-exchange\","
				+ "\"upstream_auth_outcome\":\"cached\",\"task\":\"not_found\",\"task_id_hash\":\"fedcba9876543210\","
				+ "\"trace_id\":\"0af7651916cd43dd8448eb211c80319c\",\"span_id\":\"b7ad6b7169203331\"}");
	}

	@Test
	void jsonWhenNoCapabilityContributedThenOnlyTheCoreFields() {
		McpAuditEvent event = event(Decision.ALLOWED, null, null, List.of(), null);

		assertThat(this.writer.json(event)).isEqualTo("{\"time\":\"2026-01-14T09:14:10.201Z\",\"human\":\"alice\","
				+ "\"agent\":\"agent-1\",\"team\":\"blue\",\"session_id\":\"s-1\",\"namespace\":\"test\","
				+ "\"server\":\"echo\",\"server_uid\":\"uid-echo\",\"method\":\"tools/call\",\"tool\":\"echo\","
				+ "\"decision\":\"allowed\",\"error_code\":null,\"reason\":null,\"status\":200,"
				+ "\"duration_ms\":13,\"dispatched\":false}");
	}

	@Test
	void jsonOfAVirtualServersRequestThenTheCoreFieldsNameItAndItsOwnFollow() {
		VirtualAuditEvent event = new VirtualAuditEvent(Instant.parse("2026-01-14T09:14:10.201Z"), "alice", "agent-1",
				"blue", "v-1", "test", "workspace", "uid-workspace", "tools/list", null, Decision.ALLOWED, null, 200,
				Duration.ofMillis(21), true, null, null,
				List.of(new VirtualAuditEvent.MemberFailure("down", VirtualAuditEvent.Reason.UNAVAILABLE),
						new VirtualAuditEvent.MemberFailure("json", VirtualAuditEvent.Reason.LIST_FAILED)));

		assertThat(this.writer.json(event)).isEqualTo("{\"time\":\"2026-01-14T09:14:10.201Z\",\"human\":\"alice\","
				+ "\"agent\":\"agent-1\",\"team\":\"blue\",\"session_id\":\"v-1\",\"namespace\":\"test\","
				+ "\"server\":\"workspace\",\"server_uid\":\"uid-workspace\",\"method\":\"tools/list\",\"tool\":null,"
				+ "\"decision\":\"allowed\",\"error_code\":null,\"reason\":null,\"status\":200,\"duration_ms\":21,"
				+ "\"dispatched\":true,\"virtual_server\":\"test/workspace\",\"member\":null,\"member_server\":null,"
				+ "\"members_failed\":\"down:unavailable,json:list_failed\"}");
	}

	private static McpAuditEvent event(Decision decision, String errorCode, LimitReached reason,
			List<io.github.mcpgateway.request.AuditContribution> contributions, PipelineObserver.TraceIds trace) {
		return new McpAuditEvent(Instant.parse("2026-01-14T09:14:10.201Z"), "alice", "agent-1", "blue", "s-1", "test",
				"echo", "uid-echo", "tools/call", "echo", decision, errorCode, reason, 200, Duration.ofMillis(13),
				false, contributions, trace);
	}

}
