package io.github.mcpgateway.explain;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestHttp;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /actuator/explain} against the policy of the grant tests ({@code TestPolicy}):
 * on {@code /mcp/test/echo} team {@code blue} may call {@code echo} and {@code notes_*}
 * (grant 0), human {@code carol} any tool (grant 1); the {@code delegated-header} server
 * {@code test/delegated} lets anyone call {@code echo}. Each answer is also checked
 * against what the request path does with the same caller.
 */
class ExplainEndpointIntegrationTest extends GatewayIntegrationTest {

	private static final String TOOLS = "{\"tools\":[{\"name\":\"echo\",\"inputSchema\":{}},"
			+ "{\"name\":\"admin_reset\",\"inputSchema\":{}},{\"name\":\"notes_create\",\"inputSchema\":{}}]}";

	private final JsonMapper json = JsonMapper.builder().build();

	private final String operator = TestJwts.jwt().human("ops-anna").sign();

	@Test
	void allowedToolCallNamesTheGrantThatAllowsIt() {
		JsonNode answer = explain(200, "server=/mcp/test/echo&human=dana&team=blue&agent=agent-1&tool=notes_create");

		assertThat(answer.get("allowed").asBoolean()).isTrue();
		assertThat(answer.get("reason").isNull()).isTrue();
		assertThat(answer.get("grant").get("index").asInt()).isZero();
		assertThat(answer.get("grant").get("principal").toString())
			.isEqualTo("{\"human\":\"*\",\"agent\":\"*\",\"team\":\"blue\"}");
		assertThat(answer.get("grant").get("tools").toString()).isEqualTo("[\"echo\",\"notes_*\"]");
		assertThat(answer.get("server").get("uid").asString()).isEqualTo("uid-echo");
		assertThat(answer.get("principalVerified").asBoolean()).isTrue();
		assertThat(answer.get("policyVersion").asString()).hasSize(12);
	}

	@Test
	void firstAllowingGrantIsReportedInFileOrder() {
		JsonNode answer = explain(200, "server=test/echo&human=carol&team=red&tool=admin_reset");

		assertThat(answer.get("allowed").asBoolean()).isTrue();
		assertThat(answer.get("grant").get("index").asInt()).isEqualTo(1);
		assertThat(answer.get("grant").get("principal").get("human").asString()).isEqualTo("carol");
	}

	@Test
	void unknownServerIsNoServer() {
		JsonNode answer = explain(200, "server=/mcp/test/nowhere&human=dana&team=blue");

		assertThat(answer.get("allowed").asBoolean()).isFalse();
		assertThat(answer.get("reason").asString()).isEqualTo("no_server");
		assertThat(answer.get("errorCode").asString()).isEqualTo("not_found");
		assertThat(answer.get("status").asInt()).isEqualTo(404);
		assertThat(answer.get("server").isNull()).isTrue();
	}

	@Test
	void principalNoGrantAppliesToIsRefusedForTheServerEvenOnAToolCall() {
		JsonNode listing = explain(200, "server=uid-echo&human=mallory&team=red");
		JsonNode call = explain(200, "server=uid-echo&human=mallory&team=red&tool=echo");

		for (JsonNode answer : new JsonNode[] { listing, call }) {
			assertThat(answer.get("allowed").asBoolean()).isFalse();
			assertThat(answer.get("reason").asString()).isEqualTo("no_grant_applies");
			assertThat(answer.get("errorCode").asString()).isEqualTo("server_not_granted");
			// The status the request path answers: 200 with the JSON-RPC error (the
			// default).
			assertThat(answer.get("status").asInt()).isEqualTo(200);
			assertThat(answer.get("grant").isNull()).isTrue();
		}
	}

	@Test
	void toolNoApplyingGrantListsIsRefusedForTheTool() {
		JsonNode answer = explain(200, "server=/mcp/test/echo&human=dana&team=blue&tool=admin_reset");

		assertThat(answer.get("allowed").asBoolean()).isFalse();
		assertThat(answer.get("reason").asString()).isEqualTo("no_applying_grant_lists_tool");
		assertThat(answer.get("errorCode").asString()).isEqualTo("tool_not_granted");
	}

	@Test
	void revokedPrincipalIsRefusedBeforeAnyGrantIsAsked() {
		revocations.write("{\"principals\":[{\"human\":\"erin\"}]}");
		this.revocationSync.syncNow();

		JsonNode answer = explain(200, "server=/mcp/test/echo&human=erin&team=blue&tool=echo&tools=echo,notes_create");

		assertThat(answer.get("allowed").asBoolean()).isFalse();
		assertThat(answer.get("reason").asString()).isEqualTo("principal_revoked");
		assertThat(answer.get("errorCode").asString()).isEqualTo("principal_revoked");
		assertThat(answer.get("toolsList").get("visible").toString()).isEqualTo("[]");
		assertThat(post("/mcp/test/echo", TestJwts.jwt().human("erin").sign(), toolCall(1, "echo")).body())
			.contains("\"code\":\"principal_revoked\"");
	}

	@Test
	void delegatedHeaderServerHasNoVerifiedPrincipalAndEveryGrantApplies() {
		JsonNode allowed = explain(200, "server=test/delegated&human=anyone&tool=echo");
		JsonNode refused = explain(200, "server=test/delegated&human=anyone&tool=admin_reset");

		assertThat(allowed.get("principalVerified").asBoolean()).isFalse();
		assertThat(allowed.get("allowed").asBoolean()).isTrue();
		assertThat(allowed.get("grant").get("index").asInt()).isZero();
		assertThat(refused.get("reason").asString()).isEqualTo("no_applying_grant_lists_tool");
	}

	@Test
	void toolsListPreviewShowsWhatTheFilteredReplyShows() {
		upstream.reply(Replies.jsonResult(TOOLS));
		String listed = post("/mcp/test/echo", validToken(), "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}")
			.body();

		JsonNode preview = explain(200,
				"server=/mcp/test/echo&human=alice&team=blue&agent=agent-1&tools=echo,admin_reset,notes_create")
			.get("toolsList");

		assertThat(preview.get("visible").toString()).isEqualTo("[\"echo\",\"notes_create\"]");
		assertThat(preview.get("hidden").toString()).isEqualTo("[\"admin_reset\"]");
		assertThat(listed).contains("\"name\":\"echo\"")
			.contains("\"name\":\"notes_create\"")
			.doesNotContain("admin_reset");
		JsonNode nothing = explain(200, "server=/mcp/test/echo&human=mallory&tools=echo,admin_reset").get("toolsList");
		assertThat(nothing.get("visible").toString()).isEqualTo("[]");
		assertThat(nothing.get("hidden").toString()).isEqualTo("[\"echo\",\"admin_reset\"]");
	}

	@Test
	void toolAGrantExceptsIsExplainedWithThePatternThatExcludedIt() {
		policy.write(policy.standard()
			.replace("      - principal: { team: blue }\n        tools: [echo, \"notes_*\"]",
					"      - principal: { team: blue }\n        tools: [\"*\"]\n        except: [\"admin_*\"]"));
		this.policyReloader.reloadNow();

		JsonNode excluded = explain(200, "server=/mcp/test/echo&human=dana&team=blue&tool=admin_reset");
		JsonNode allowed = explain(200, "server=/mcp/test/echo&human=dana&team=blue&tool=anything_else");
		HttpResponse<String> call = post("/mcp/test/echo", TestJwts.jwt().human("dana").team("blue").sign(),
				toolCall(7, "admin_reset"));

		assertThat(excluded.get("allowed").asBoolean()).isFalse();
		assertThat(excluded.get("errorCode").asString()).isEqualTo("tool_not_granted");
		assertThat(excluded.at("/excludedBy/0/grant").asInt()).isZero();
		assertThat(excluded.at("/excludedBy/0/pattern").asString()).isEqualTo("admin_*");
		assertThat(allowed.get("allowed").asBoolean()).isTrue();
		assertThat(allowed.at("/grant/except/0").asString()).isEqualTo("admin_*");
		assertThat(call.body()).contains("\"code\":\"tool_not_granted\"");
	}

	@ParameterizedTest(name = "{0} team {1} calling {2}")
	@CsvSource({ "dana,blue,echo", "dana,blue,notes_list", "dana,blue,admin_reset", "carol,red,admin_reset",
			"mallory,red,echo", "mallory,,notes_create" })
	void explanationAgreesWithTheRequestPath(String human, String team, String tool) {
		upstream.reply(Replies.jsonResult("{\"content\":[]}"));
		JsonNode answer = explain(200,
				"server=/mcp/test/echo&human=" + human + "&tool=" + tool + ((team != null) ? "&team=" + team : ""));

		HttpResponse<String> call = post("/mcp/test/echo", TestJwts.jwt().human(human).team(team).sign(),
				toolCall(5, tool));

		assertThat(call.body().contains("\"error\"")).isNotEqualTo(answer.get("allowed").asBoolean());
		if (!answer.get("allowed").asBoolean()) {
			assertThat(call.statusCode()).isEqualTo(answer.get("status").asInt());
			assertThat(call.body()).contains("\"code\":\"" + answer.get("errorCode").asString() + "\"");
		}
	}

	@Test
	void virtualServerToolIsExplainedByTheMemberThatServesItUnderItsOwnName() {
		policy.write(policy.standard() + """
				virtual-servers:
				  - namespace: test
				    name: workspace
				    uid: uid-workspace
				    path: /mcp/test/workspace
				    members:
				      - server: test/echo
				        prefix: echo
				    limits:
				      - { name: creates, tools: ["echo_notes_*"], tokens: 4, period: 1h }
				""");
		this.policyReloader.reloadNow();

		JsonNode allowed = explain(200, "server=uid-workspace&human=dana&team=blue&tool=echo_notes_create");
		JsonNode refused = explain(200, "server=/mcp/test/workspace&human=dana&team=blue&tool=echo_admin_reset");
		JsonNode notServed = explain(200, "server=test/workspace&human=dana&team=blue&tool=notes_create");
		JsonNode direct = explain(200, "server=/mcp/test/echo&human=dana&team=blue&tool=admin_reset");

		assertThat(allowed.get("allowed").asBoolean()).isTrue();
		assertThat(allowed.at("/virtualServer/path").asString()).isEqualTo("/mcp/test/workspace");
		assertThat(allowed.at("/servedBy/tool").asString()).isEqualTo("notes_create");
		assertThat(allowed.at("/member/grant/index").asInt()).isZero();
		assertThat(refused.get("allowed").asBoolean()).isFalse();
		assertThat(refused.get("decidedBy").asString()).isEqualTo("member");
		assertThat(refused.get("errorCode").asString()).isEqualTo("tool_not_granted");
		assertThat(refused.get("member")).isEqualTo(direct);
		assertThat(notServed.get("reason").asString()).isEqualTo("tool_not_served");
		assertThat(allowed.at("/virtualLimits/0/name").asString()).isEqualTo("creates");
		assertThat(allowed.at("/virtualLimits/0/remaining").asInt()).isEqualTo(4);
		assertThat(refused.get("virtualLimits")).as("echo_admin_reset is not one of its tools").isEmpty();
	}

	@Test
	void missingHumanIsABadRequest() {
		HttpResponse<String> response = get("/actuator/explain?server=/mcp/test/echo", this.operator);

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("human is required");
	}

	@Test
	void anonymousCallersGet401AndNonOperators403() {
		String path = "/actuator/explain?server=/mcp/test/echo&human=dana";
		assertThat(get(path, null).statusCode()).isEqualTo(401);
		HttpResponse<String> notOperator = get(path, validToken());
		assertThat(notOperator.statusCode()).isEqualTo(403);
		assertThat(notOperator.body()).contains("\"code\":\"operator_required\"");
	}

	@Test
	void answerHoldsNoTokenAndNoPayload() {
		HttpResponse<String> response = get(
				"/actuator/explain?server=/mcp/test/echo&human=dana&team=blue&tool=echo" + "&tools=echo",
				this.operator);

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).doesNotContain(this.operator)
			.doesNotContain("eyJ")
			.doesNotContain("Bearer")
			.doesNotContain("arguments");
	}

	private JsonNode explain(int status, String query) {
		HttpResponse<String> response = get("/actuator/explain?" + TestHttp.query(query), this.operator);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		return this.json.readTree(response.body());
	}

	private HttpResponse<String> get(String path, String token) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).GET();
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		return send(request.build());
	}

}
