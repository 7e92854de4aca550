package io.github.mcpgateway.grant;

import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.condition.CallerConditionTime;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.Refusals;
import io.github.mcpgateway.request.StageDecision;
import io.github.mcpgateway.request.StageDecision.Refuse;
import io.github.mcpgateway.request.StageDecision.Wrap;
import io.github.mcpgateway.request.TestExchanges;
import io.github.mcpgateway.support.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The grant stage's decisions and the grant it records, built as its configuration builds
 * it, with the policy model's own evaluator.
 */
class PolicyStageTest {

	private final McpServerPolicy server = TestExchanges.server("""
			  - namespace: test
			    name: echo
			    uid: uid-echo
			    upstream: http://upstream.example/mcp
			    path: /mcp/test/echo
			    grants:
			      - principal: { team: red }
			        tools: ["*"]
			      - principal: { team: blue }
			        tools: [echo]
			        resources: ["file:///docs/*"]
			      - name: small-amounts
			        principal: { team: blue }
			        tools: [pay]
			        when: arguments.amount < 1000
			""");

	private final McpPrincipal blue = new McpPrincipal("alice", null, "blue");

	private final PolicyStage stage = stage();

	@Test
	void decideWhenAGrantAllowsTheToolThenGoesOnAndRecordsTheDecidingGrant() {
		McpExchange exchange = call("echo", "{}");

		assertThat(this.stage.decide(exchange)).isSameAs(StageDecision.proceed());
		assertThat(exchange.context().get(GrantOutcome.ALLOWED_BY)).isEqualTo(1);
	}

	@Test
	void decideWhenNoApplyingGrantListsTheToolThenToolNotGrantedAndNoGrantRecorded() {
		McpExchange exchange = call("admin_reset", "{}");

		assertThat(this.stage.decide(exchange)).isEqualTo(StageDecision.refuse(GatewayErrors.TOOL_NOT_GRANTED));
		assertThat(exchange.context().get(GrantOutcome.ALLOWED_BY)).isNull();
	}

	@Test
	void decideWhenNoGrantAppliesToThePrincipalThenServerNotGranted() {
		McpExchange exchange = TestExchanges.post(this.server, """
				{"jsonrpc":"2.0","id":1,"method":"ping"}""")
			.principal(new McpPrincipal("mallory", null, "green"))
			.build();

		assertThat(this.stage.decide(exchange)).isEqualTo(StageDecision.refuse(GatewayErrors.SERVER_NOT_GRANTED));
	}

	@Test
	void decideWhenConditionsDenyThenArgumentsDeniedNamingTheGrantAsTheReason() {
		McpExchange allowed = call("pay", "{\"amount\":10}");
		McpExchange denied = call("pay", "{\"amount\":5000}");

		assertThat(this.stage.decide(allowed)).isSameAs(StageDecision.proceed());
		assertThat(allowed.context().get(GrantOutcome.ALLOWED_BY)).isEqualTo(2);
		StageDecision decision = this.stage.decide(denied);
		assertThat(decision).isInstanceOf(Refuse.class);
		Refuse refusal = (Refuse) decision;
		assertThat(refusal.error().code()).isEqualTo(GatewayErrors.TOOL_ARGUMENTS_DENIED.code());
		assertThat(refusal.error().details()).containsEntry("grant", "small-amounts");
		assertThat(refusal.reason()).isEqualTo(new GrantOutcome.DeniedBy("small-amounts"));
	}

	@Test
	void decideWhenASubscriptionNamesAResourceNoGrantAllowsThenResourceNotGrantedAndNoGrantRecorded() {
		McpExchange exchange = TestExchanges.post(this.server, """
				{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":
				{"resourceSubscriptions":["file:///docs/a","file:///etc/passwd"]}}}""").principal(this.blue).build();

		assertThat(this.stage.decide(exchange)).isEqualTo(StageDecision.refuse(GatewayErrors.RESOURCE_NOT_GRANTED));
		assertThat(exchange.context().get(GrantOutcome.ALLOWED_BY)).isNull();
	}

	@Test
	void decideWhenToolsAreListedThenTheResponseIsWrappedToFilterTheReply() {
		McpExchange exchange = TestExchanges.post(this.server, """
				{"jsonrpc":"2.0","id":1,"method":"tools/list"}""").principal(this.blue).build();

		StageDecision decision = this.stage.decide(exchange);

		assertThat(decision).isInstanceOf(Wrap.class);
		assertThat(((Wrap) decision).response()).isNotNull().isNotSameAs(exchange.response());
		assertThat(exchange.context().get(GrantOutcome.ALLOWED_BY)).isEqualTo(1);
	}

	private McpExchange call(String tool, String arguments) {
		return TestExchanges
			.post(this.server,
					"""
							{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"%s","arguments":%s}}"""
						.formatted(tool, arguments))
			.principal(this.blue)
			.build();
	}

	private static PolicyStage stage() {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		MutableClock clock = new MutableClock();
		GrantEvaluator grants = new GrantEvaluator();
		GrantDecisions decisions = new GrantDecisions(grants,
				new CallerConditionTime(Duration.ofSeconds(1), Duration.ofSeconds(1), clock, meters),
				new ConditionErrors(meters));
		ToolHeaderAnnotations annotations = new ToolHeaderAnnotations();
		JsonMapper json = JsonMapper.builder().build();
		return new PolicyStage(new RequestGrants(decisions), new SubscriptionGrants(decisions),
				new ParamHeaderCheck(annotations),
				new ListFilters(grants, annotations, new Refusals(new GatewayErrorRenderer(json)), json, 1 << 20));
	}

}
