package io.github.mcpgateway.policy;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Grant conditions ({@code when}, issue 30) on the request path: a call is allowed only
 * when an applying grant's condition is true for its arguments, an evaluation error is a
 * refusal, a condition on the principal is decided when the tools are listed, a refused
 * keyed call stores nothing, an expensive expression is stopped by its budget, a policy
 * whose condition does not compile is refused at reload, and explain decides as the call
 * does.
 */
@ExtendWith(OutputCaptureExtension.class)
class ConditionsIntegrationTest extends GatewayIntegrationTest {

	private static final String LEDGER = "/mcp/test/ledger";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Autowired
	private LivePolicy livePolicy;

	@Autowired
	private MeterRegistry meters;

	private final String alice = TestJwts.jwt().human("alice").team("payments").sign();

	private final String olga = TestJwts.jwt().human("olga").team("ops").sign();

	private final String erin = TestJwts.jwt().human("erin").team("marketing").sign();

	private String uid;

	@BeforeEach
	void ledgerServer() {
		this.uid = "uid-ledger-" + UUID.randomUUID();
		write(ledger(this.uid, """
				      - name: ledger-eur
				        principal: { team: payments }
				        tools: [ledger_write]
				        when: 'arguments.amount < 1000 && arguments.currency == "EUR"'
				      - principal: { team: payments }
				        tools: [ledger_read]
				      - name: ops-only
				        tools: [ops_reset]
				        when: principal.team == "ops"
				      - name: heavy
				        principal: { team: payments }
				        tools: [heavy]
				        when: arguments.xs.all(x, arguments.xs.all(y, x == y))
				      - name: english-greeting
				        principal: { team: payments }
				        tools: [ledger_read]
				        prompts: [greeting]
				        when: arguments.lang == "en"
				      - name: public-docs
				        principal: { team: payments }
				        tools: [ledger_read]
				        resources: ["file:///docs/*"]
				        when: >-
				          method in ["resources/read", "resources/subscribe"]
				          && params.uri.startsWith("file:///docs/public/")
				      - name: never-force
				        principal: { team: payments }
				        tools: [deploy]
				        when: 'arguments.force != true'
				"""));
	}

	@Test
	void aDenialByComparisonRefusesAValueOfAnotherTypeAndOnlyTheAllowedCallGoesUpstream() {
		int before = upstreamCalls("deploy");

		HttpResponse<String> allowed = post(LEDGER, this.alice, deploy(1, "false"));
		for (String force : new String[] { "true", "\"true\"", "1", "[true]" }) {
			HttpResponse<String> refused = post(LEDGER, this.alice, deploy(2, force));
			assertThat(status(refused)).as(force + ": " + refused.body()).isEqualTo(403);
			JsonNode error = JSON.readTree(refused.body()).get("error");
			assertThat(error.get("data").get("code").asString()).isEqualTo("tool_arguments_denied");
			assertThat(error.get("data").get("grant").asString()).isEqualTo("never-force");
		}

		assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(200);
		assertThat(upstreamCalls("deploy")).as("only force: false went upstream").isEqualTo(before + 1);
		assertThat(errors("wrong_type")).isGreaterThanOrEqualTo(3);
	}

	private static String deploy(int id, String force) {
		return jsonRpc(id, "tools/call", "{\"name\":\"deploy\",\"arguments\":{\"force\":" + force + "}}");
	}

	@Test
	void aLedgerWriteIsAllowedOnlyForAnAmountUnder1000InEuros(CapturedOutput output) {
		int before = upstreamCalls("ledger_write");

		HttpResponse<String> allowed = post(LEDGER, this.alice, ledgerWrite(1, "999", "\"EUR\""));
		HttpResponse<String> tooMuch = post(LEDGER, this.alice, ledgerWrite(2, "1000", "\"EUR\""));
		HttpResponse<String> missing = post(LEDGER, this.alice, ledgerWrite(3, null, "\"EUR\""));
		HttpResponse<String> asString = post(LEDGER, this.alice, ledgerWrite(4, "\"999\"", "\"EUR\""));
		HttpResponse<String> otherCurrency = post(LEDGER, this.alice, ledgerWrite(5, "5", "\"XQZ-secret\""));

		assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(200);
		for (HttpResponse<String> refused : List.of(tooMuch, missing, asString, otherCurrency)) {
			assertThat(status(refused)).as(refused.body()).isEqualTo(403);
			JsonNode error = JSON.readTree(refused.body()).get("error");
			assertThat(error.get("data").get("code").asString()).isEqualTo("tool_arguments_denied");
			assertThat(error.get("data").get("grant").asString()).isEqualTo("ledger-eur");
			assertThat(refused.body()).as("never the arguments").doesNotContain("amount").doesNotContain("XQZ");
		}
		assertThat(JSON.readTree(tooMuch.body()).get("id").asInt()).isEqualTo(2);
		assertThat(upstreamCalls("ledger_write")).as("only the allowed call went upstream").isEqualTo(before + 1);
		assertThat(errors("missing_field")).isGreaterThanOrEqualTo(1);
		assertThat(errors("wrong_type")).isGreaterThanOrEqualTo(1);
		assertThat(output.getOut()).contains("\"error_code\":\"tool_arguments_denied\"")
			.contains("\"reason\":\"ledger-eur\"")
			.doesNotContain("XQZ-secret");
	}

	@Test
	void aRefusedKeyedCallStoresNothingSoTheSameKeyThenRunsAnAllowedCall() {
		String key = "ledger-" + UUID.randomUUID();
		int before = upstreamCalls("ledger_write");

		HttpResponse<String> refused = post(LEDGER, this.alice, ledgerWrite(1, "5000", "\"EUR\""), "Idempotency-Key",
				key);
		HttpResponse<String> again = post(LEDGER, this.alice, ledgerWrite(1, "5000", "\"EUR\""), "Idempotency-Key",
				key);
		HttpResponse<String> allowed = post(LEDGER, this.alice, ledgerWrite(2, "10", "\"EUR\""), "Idempotency-Key",
				key);

		assertThat(refused.body()).contains("tool_arguments_denied");
		assertThat(again.body()).as("refused again, not replayed").contains("tool_arguments_denied");
		assertThat(again.headers().firstValue("Idempotency-Replayed")).isEmpty();
		assertThat(allowed.statusCode()).as("no entry under the key: another body runs").isEqualTo(200);
		assertThat(allowed.headers().firstValue("Idempotency-Replayed")).isEmpty();
		assertThat(upstreamCalls("ledger_write")).isEqualTo(before + 1);
		assertThat(post(LEDGER, this.alice, ledgerWrite(2, "10", "\"EUR\""), "Idempotency-Key", key).headers()
			.firstValue("Idempotency-Replayed")).as("the allowed call's entry").hasValue("true");
	}

	@Test
	void aConditionOnThePrincipalHidesTheToolAndOneOnArgumentsKeepsItListed() {
		String tools = "{\"tools\":[{\"name\":\"ledger_write\"},{\"name\":\"ledger_read\"},{\"name\":\"ops_reset\"}]}";
		upstream.reply(Replies.jsonResult(tools));
		String forAlice = post(LEDGER, this.alice, jsonRpc(1, "tools/list", "{}")).body();
		upstream.reply(Replies.jsonResult(tools));
		String forOlga = post(LEDGER, this.olga, jsonRpc(2, "tools/list", "{}")).body();

		assertThat(forAlice).contains("\"ledger_write\"").contains("\"ledger_read\"").doesNotContain("ops_reset");
		assertThat(forOlga).contains("\"ops_reset\"").doesNotContain("ledger_write");
		int before = upstream.count();
		HttpResponse<String> hidden = post(LEDGER, this.alice, toolCall(3, "ops_reset"));
		assertThat(hidden.body()).as("decided at list time: refused as not granted")
			.contains("\"code\":\"tool_not_granted\"");
		assertThat(upstream.count()).isEqualTo(before);
		assertThat(post(LEDGER, this.olga, toolCall(4, "ops_reset")).statusCode()).isEqualTo(200);
	}

	@Test
	void aConditionAppliesToAPromptsArguments() {
		int before = upstream.count();

		HttpResponse<String> french = post(LEDGER, this.alice,
				jsonRpc(1, "prompts/get", "{\"name\":\"greeting\",\"arguments\":{\"lang\":\"fr\"}}"));
		upstream.reply(Replies.jsonResult("{\"messages\":[]}"));
		HttpResponse<String> english = post(LEDGER, this.alice,
				jsonRpc(2, "prompts/get", "{\"name\":\"greeting\",\"arguments\":{\"lang\":\"en\"}}"));

		assertThat(french.body()).contains("\"code\":\"prompt_arguments_denied\"")
			.contains("\"grant\":\"english-greeting\"");
		assertThat(english.body()).contains("\"messages\"");
		assertThat(upstream.count()).isEqualTo(before + 1);
	}

	@Test
	void aResourceConditionDecidesAReadAndEachUriOfAStatelessListenAsASubscribe() {
		String listen = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"subscriptions/listen\",\"params\":{\"_meta\":"
				+ "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"},\"notifications\":{\"resourceSubscriptions\":"
				+ "[%s]}}}";
		String[] headers = { "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "subscriptions/listen" };
		int before = upstream.count();

		HttpResponse<String> privateRead = post(LEDGER, this.alice,
				jsonRpc(1, "resources/read", "{\"uri\":\"file:///docs/private/plan.md\"}"));
		HttpResponse<String> privateListen = post(LEDGER, this.alice,
				listen.formatted("\"file:///docs/public/a.md\",\"file:///docs/private/plan.md\""), headers);

		assertThat(privateRead.body()).contains("\"code\":\"resource_params_denied\"")
			.contains("\"grant\":\"public-docs\"");
		assertThat(privateListen.body()).contains("\"code\":\"resource_params_denied\"")
			.contains("\"grant\":\"public-docs\"");
		assertThat(upstream.count()).isEqualTo(before);
		upstream.reply(Replies.jsonResult("{}"));
		assertThat(post(LEDGER, this.alice, listen.formatted("\"file:///docs/public/a.md\""), headers).body())
			.as("a subscription the condition allows goes upstream")
			.doesNotContain("resource_params_denied");
		assertThat(upstream.count()).isEqualTo(before + 1);
	}

	@Test
	void anExpensiveExpressionIsStoppedWithinItsBudgetAndOthersAreServedMeanwhile() {
		String elements = "[" + "1,".repeat(9_999) + "1]";
		String heavy = jsonRpc(1, "tools/call", "{\"name\":\"heavy\",\"arguments\":{\"xs\":" + elements + "}}");
		int before = upstream.count();

		CompletableFuture<HttpResponse<String>> expensive = CompletableFuture
			.supplyAsync(() -> post(LEDGER, this.alice, heavy));
		HttpResponse<String> meanwhile = post(LEDGER, this.alice, toolCall(2, "ledger_read"));
		long started = System.nanoTime();
		HttpResponse<String> refused = post(LEDGER, this.alice, heavy);
		Duration took = Duration.ofNanos(System.nanoTime() - started);

		assertThat(status(refused)).isEqualTo(403);
		assertThat(refused.body()).contains("\"code\":\"tool_arguments_denied\"").contains("\"grant\":\"heavy\"");
		assertThat(took).as("the 50 ms budget, plus the request's own time").isLessThan(Duration.ofSeconds(2));
		assertThat(status(expensive.join())).isEqualTo(403);
		assertThat(meanwhile.statusCode()).isEqualTo(200);
		assertThat(upstream.count()).as("only the cheap call").isEqualTo(before + 1);
		assertThat(errors("budget_exceeded")).isGreaterThanOrEqualTo(2);
	}

	@Test
	void aConditionThatDoesNotCompileIsRefusedAtReloadWithItsLineAndTheLastGoodPolicyServes() {
		String[][] broken = { { "arguments.amount <", "does not compile" },
				{ "argumnts.amount < 1000", "undeclared reference to 'argumnts'" },
				{ "tool < 3", "no matching overload" }, { "principal.team == 7", "no matching overload" } };
		for (String[] condition : broken) {
			String file = ledger(this.uid, """
					      - principal: { team: payments }
					        tools: [ledger_write]
					        when: '%s'
					""".formatted(condition[0]));
			policy.write(policy.standard() + file);
			this.policyReloader.reloadNow();

			int line = (policy.standard() + file).lines().toList().indexOf("        when: '" + condition[0] + "'") + 1;
			assertThat(this.livePolicy.lastReload().succeeded()).isFalse();
			assertThat(this.livePolicy.lastReload().error()).contains("line " + line)
				.contains(".grants[0].when)")
				.contains(condition[1]);
		}
		assertThat(post(LEDGER, this.alice, ledgerWrite(1, "5000", "\"EUR\"")).body())
			.as("the last good policy, conditions and all")
			.contains("tool_arguments_denied");
	}

	@Test
	void explainGivesTheCallsDecisionForEachCase() {
		String who = "&human=alice&agent=agent-1&team=payments";
		String[][] cases = { { this.alice, who, "ledger_write", "{\"amount\":999,\"currency\":\"EUR\"}" },
				{ this.alice, who, "ledger_write", "{\"amount\":1000,\"currency\":\"EUR\"}" },
				{ this.alice, who, "ledger_write", "{\"currency\":\"EUR\"}" },
				{ this.alice, who, "ledger_write", "{\"amount\":\"999\",\"currency\":\"EUR\"}" },
				{ this.alice, who, "ops_reset", "{}" },
				{ this.erin, "&human=erin&agent=agent-1&team=marketing", "ledger_read", "{}" } };
		for (String[] call : cases) {
			JsonNode explained = explain("server=" + LEDGER + call[1] + "&tool=" + call[2] + "&arguments=" + call[3]);
			HttpResponse<String> real = post(LEDGER, call[0],
					jsonRpc(9, "tools/call", "{\"name\":\"" + call[2] + "\",\"arguments\":" + call[3] + "}"));

			JsonNode error = JSON.readTree(real.body()).path("error");
			assertThat(explained.get("allowed").asBoolean()).as(call[2] + " " + call[3])
				.isEqualTo(error.isMissingNode());
			if (!error.isMissingNode()) {
				assertThat(explained.get("errorCode").asString()).isEqualTo(error.get("data").get("code").asString());
				assertThat(explained.get("status").asInt()).isEqualTo(real.statusCode());
			}
		}
		JsonNode denied = explain(
				"server=" + LEDGER + who + "&tool=ledger_write&arguments={\"amount\":\"999\",\"currency\":\"EUR\"}");
		assertThat(denied.get("deniedBy").asString()).isEqualTo("ledger-eur");
		assertThat(denied.get("conditions").get(0).toString()).isEqualTo("{\"grant\":0,\"name\":\"ledger-eur\","
				+ "\"when\":\"arguments.amount < 1000 && arguments.currency == \\\"EUR\\\"\",\"decidedAt\":\"call\","
				+ "\"result\":\"wrong_type\"}");
		JsonNode allowed = explain(
				"server=" + LEDGER + who + "&tool=ledger_write&arguments={\"amount\":1,\"currency\":\"EUR\"}");
		assertThat(allowed.get("grant").get("name").asString()).isEqualTo("ledger-eur");
		assertThat(allowed.get("conditions").get(0).get("result").asString()).isEqualTo("true");
	}

	private void write(String server) {
		policy.write(policy.standard() + server);
		this.policyReloader.reloadNow();
		assertThat(this.livePolicy.lastReload().succeeded()).as(this.livePolicy.lastReload().error()).isTrue();
	}

	private static String ledger(String uid, String grants) {
		return """
				  - namespace: test
				    name: ledger
				    uid: %s
				    upstream: %s
				    path: %s
				    grants:
				""".formatted(uid, upstream.url("/ledger"), LEDGER) + grants;
	}

	private static String ledgerWrite(int id, String amount, String currency) {
		String arguments = ((amount != null) ? "\"amount\":" + amount + "," : "") + "\"currency\":" + currency;
		return jsonRpc(id, "tools/call", "{\"name\":\"ledger_write\",\"arguments\":{" + arguments + "}}");
	}

	/**
	 * The status a refusal names: the HTTP status, or {@code error.data.status} when the
	 * refusal is answered as a JSON-RPC error (docs/errors.md).
	 */
	private static int status(HttpResponse<String> response) {
		JsonNode status = JSON.readTree(response.body()).path("error").path("data").path("status");
		return status.isNumber() ? status.asInt() : response.statusCode();
	}

	private double errors(String result) {
		return this.meters.find("mcp.gateway.policy.condition.errors")
			.tags("server", "test/ledger", "result", result)
			.counters()
			.stream()
			.mapToDouble((counter) -> counter.count())
			.sum();
	}

	private static int upstreamCalls(String tool) {
		return (int) upstream.received()
			.stream()
			.filter((received) -> received.uri().startsWith("/ledger")
					&& received.bodyText().contains("\"name\":\"" + tool + "\""))
			.count();
	}

}
