package io.github.mcpgateway.tracing;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.UpstreamAuth;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.TestRequestContexts;

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
					URI.create("http://upstream.example/mcp"), "/mcp/test/echo", null, null, null, null),
			null, false, null);

	@Test
	void describeWhenPolicyGrantedThenTheGrantsIndex() {
		this.context.granted(2);

		assertThat(describe("policy")).containsExactly(Map.entry("mcp_gateway.grant", "grants[2]"));
	}

	@Test
	void describeWhenAConditionRefusedThenTheGrantWhoseConditionRefused() {
		this.context.refused(GatewayErrors.TOOL_ARGUMENTS_DENIED, "grants[1]");

		assertThat(describe("policy")).containsExactly(Map.entry("mcp_gateway.grant", "grants[1]"));
	}

	@Test
	void describeWhenNoGrantAppliedThenNoGrant() {
		this.context.refused(GatewayErrors.TOOL_NOT_GRANTED, "tool_not_granted");

		assertThat(describe("policy")).isEmpty();
	}

	@Test
	void describeWhenALimitRefusedThenTheLimitOnTheQuotaSpanOnly() {
		this.context.refused(GatewayErrors.RATE_LIMITED, "limits[0]");

		assertThat(describe("quota")).containsExactly(Map.entry("mcp_gateway.limit", "limits[0]"));
		assertThat(describe("policy")).isEmpty();
	}

	@Test
	void describeWhenKeyedTaskAndCredentialRecordedThenTheirOutcomes() {
		this.context.idempotency(() -> "replay", "0123456789abcdef");
		this.context.task(() -> "created", "fedcba9876543210", "echo");
		this.context.upstreamAuth(UpstreamAuth.Mode.TOKEN_EXCHANGE, () -> "cached", null);

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
