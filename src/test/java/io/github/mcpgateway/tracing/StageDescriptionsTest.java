package io.github.mcpgateway.tracing;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.grant.GrantOutcome;
import io.github.mcpgateway.grant.TestGrantOutcomes;
import io.github.mcpgateway.idempotency.IdempotencyOutcome;
import io.github.mcpgateway.idempotency.TestKeyedOutcomes;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.UpstreamAuth;
import io.github.mcpgateway.quota.LimitReached;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.TestRequestContexts;
import io.github.mcpgateway.task.TaskOutcome;
import io.github.mcpgateway.task.TestTaskHandlings;
import io.github.mcpgateway.upstreamauth.CredentialOutcome;
import io.github.mcpgateway.upstreamauth.TestUpstreamCredentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stage spans' attributes, derived from what each stage recorded on a hand-built
 * context: the deciding grant, the grant whose condition refused, the refusing limit, the
 * Idempotency-Key, task and upstream credential outcomes; nothing for a stage that
 * recorded nothing or that has nothing to say.
 */
class StageDescriptionsTest {

	private final McpRequestContext context = TestRequestContexts.open(
			new MockHttpServletRequest(), new McpServerPolicy("test", "echo", null,
					URI.create("http://upstream.example/mcp"), null, "/mcp/test/echo", null, null, null, null),
			null, false, null);

	@Test
	void describeWhenPolicyGrantedThenTheGrantsIndex() {
		TestGrantOutcomes.allowed(this.context, 2);

		assertThat(describe("policy")).containsExactly(Map.entry("mcp_gateway.grant", "grants[2]"));
	}

	@Test
	void describeWhenAConditionRefusedThenTheGrantWhoseConditionRefused() {
		TestRequestContexts.refused(this.context, GatewayErrors.TOOL_ARGUMENTS_DENIED,
				new GrantOutcome.DeniedBy("grants[1]"));

		assertThat(describe("policy")).containsExactly(Map.entry("mcp_gateway.grant", "grants[1]"));
	}

	@Test
	void describeWhenNoGrantAppliedThenNoGrant() {
		TestRequestContexts.refused(this.context, GatewayErrors.TOOL_NOT_GRANTED, null);

		assertThat(describe("policy")).isEmpty();
	}

	@Test
	void describeWhenALimitRefusedThenTheLimitOnTheQuotaSpanOnly() {
		TestRequestContexts.refused(this.context, GatewayErrors.RATE_LIMITED, new LimitReached("limits[0]"));

		assertThat(describe("quota")).containsExactly(Map.entry("mcp_gateway.limit", "limits[0]"));
		assertThat(describe("policy")).isEmpty();
	}

	@Test
	void describeWhenKeyedTaskAndCredentialRecordedThenTheirOutcomes() {
		TestKeyedOutcomes.record(this.context, IdempotencyOutcome.REPLAY, "0123456789abcdef");
		TestTaskHandlings.record(this.context, TaskOutcome.CREATED, "fedcba9876543210", "echo");
		TestUpstreamCredentials.record(this.context, UpstreamAuth.Mode.TOKEN_EXCHANGE, CredentialOutcome.CACHED);

		assertThat(describe("idempotency")).containsExactly(Map.entry("mcp_gateway.idempotency", "replay"));
		assertThat(StageDescriptions.idempotency(this.context)).isEqualTo("replay");
		assertThat(describe("task")).containsExactly(Map.entry("mcp_gateway.task", "created"));
		assertThat(describe("upstream_credentials")).containsExactly(
				Map.entry("mcp_gateway.upstream_auth.mode", "token-exchange"),
				Map.entry("mcp_gateway.upstream_auth", "cached"));
	}

	@Test
	void describeWhenNothingRecordedThenOnlyTheSessionSaysSo() {
		assertThat(describe("session")).containsExactly(Map.entry("mcp_gateway.session.present", "false"));
		assertThat(describe("idempotency")).isEmpty();
		assertThat(describe("task")).isEmpty();
		assertThat(describe("upstream_credentials")).isEmpty();
		assertThat(describe("upstream_guard")).isEmpty();
		assertThat(StageDescriptions.idempotency(this.context)).isNull();
	}

	private Map<String, String> describe(String stage) {
		Map<String, String> attributes = new LinkedHashMap<>();
		StageDescriptions.describe(stage, this.context, attributes::put);
		return attributes;
	}

}
