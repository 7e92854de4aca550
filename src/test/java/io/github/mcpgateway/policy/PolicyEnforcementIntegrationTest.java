package io.github.mcpgateway.policy;

import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestUpstream;

import static org.assertj.core.api.Assertions.assertThat;

class PolicyEnforcementIntegrationTest extends GatewayIntegrationTest {

	private static final String TOOLS = "{\"tools\":[{\"name\":\"echo\",\"inputSchema\":{}},"
			+ "{\"name\":\"admin_reset\",\"inputSchema\":{}},{\"name\":\"notes_create\",\"inputSchema\":{}}],"
			+ "\"nextCursor\":\"page-2\"}";

	@Test
	void grantedToolCallReachesUpstreamAndReplyArrivesByteForByte() {
		String reply = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"h\u00e9\"}],"
				+ "\"isError\":false}  }\n";
		upstream.reply(Replies.raw(200, "application/json", reply));
		String request = toolCall(7, "echo");

		HttpResponse<String> response = post("/mcp/test/echo", validToken(), request);

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo(reply);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(upstream.received()).singleElement().satisfies((received) -> {
			assertThat(received.bodyText()).isEqualTo(request);
			assertThat(received.uri()).isEqualTo("/mcp");
		});
	}

	@Test
	void refusedNotificationKeepsItsHttpStatusForItHasNoResponseToCarryTheError() {
		HttpResponse<String> refused = post("/mcp/test/echo", TestJwts.jwt().human("mallory").team("red").sign(),
				"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

		assertThat(refused.statusCode()).isEqualTo(403);
		assertThat(refused.body()).contains("\"code\":\"server_not_granted\"").doesNotContain("\"status\"");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void toolCallWithoutGrantIsForbiddenWithRequestIdAndNothingSentUpstream() {
		HttpResponse<String> response = post("/mcp/test/echo", validToken(), toolCall(42, "admin_reset"));

		// A decision: HTTP 200 with the JSON-RPC error, the status it stands for in data.
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":42,\"error\":{\"code\":-32002,"
				+ "\"message\":\"No grant allows this principal to call this tool\",\"data\":{\"code\":\"tool_not_granted\","
				+ "\"status\":403}}}");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void principalWithoutAnyGrantOnServerIsForbidden() {
		String token = TestJwts.jwt().human("mallory").team("red").sign();

		HttpResponse<String> response = post("/mcp/test/echo", token,
				"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"initialize\",\"params\":{}}");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"id\":\"a\"").contains("\"code\":\"server_not_granted\"");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void humanGrantWithWildcardAllowsAnyTool() {
		String token = TestJwts.jwt().human("carol").team("red").sign();

		assertThat(post("/mcp/test/echo", token, toolCall(1, "admin_reset")).statusCode()).isEqualTo(200);
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void grantWithAnExceptionHidesAndRefusesThatToolAndAllowsEveryOtherIncludingOnesAddedLater() {
		policy.write(policy.standard()
			.replace("      - principal: { team: blue }\n        tools: [echo, \"notes_*\"]",
					"      - principal: { team: blue }\n        tools: [\"*\"]\n        except: [admin_reset]"));
		this.policyReloader.reloadNow();
		upstream.reply(Replies.jsonResult(
				"{\"tools\":[{\"name\":\"echo\"},{\"name\":\"admin_reset\"}," + "{\"name\":\"added_later\"}]}"));

		HttpResponse<String> listed = post("/mcp/test/echo", validToken(),
				"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");
		HttpResponse<String> excluded = post("/mcp/test/echo", validToken(), toolCall(4, "admin_reset"));
		upstream.reply(Replies.jsonResult("{\"content\":[]}"));
		HttpResponse<String> later = post("/mcp/test/echo", validToken(), toolCall(5, "added_later"));

		assertThat(listed.body()).contains("\"added_later\"").contains("\"echo\"").doesNotContain("admin_reset");
		assertThat(excluded.body()).contains("\"code\":\"tool_not_granted\"");
		assertThat(later.body()).doesNotContain("\"error\"");
		assertThat(upstream.received()).extracting(TestUpstream.Received::bodyText)
			.noneMatch((body) -> body.contains("admin_reset") && body.contains("tools/call"));
	}

	@Test
	void toolsListJsonReplyOmitsToolsThePrincipalMayNotCall() {
		upstream.reply(Replies.jsonResult(TOOLS));

		HttpResponse<String> response = post("/mcp/test/echo", validToken(),
				"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"name\":\"echo\"")
			.contains("\"name\":\"notes_create\"")
			.contains("\"nextCursor\":\"page-2\"")
			.doesNotContain("admin_reset");
		assertThat(response.headers().firstValueAsLong("Content-Length")).hasValue(response.body().length());
	}

	@Test
	void toolsListEventStreamOmitsToolsThePrincipalMayNotCallAndKeepsOtherEvents() {
		String progress = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
				+ "\"params\":{\"progressToken\":1,\"progress\":1}}\n\n";
		String result = "id: e2\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":" + TOOLS + "}\n\n";
		upstream.reply(Replies.sse(List.of(progress, result), 10));

		HttpResponse<String> response = post("/mcp/test/echo", validToken(),
				"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
		assertThat(response.body()).startsWith(progress)
			.contains("id: e2\nevent: message\ndata: ")
			.contains("\"name\":\"notes_create\"")
			.doesNotContain("admin_reset");
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', value = {
			"truncated|{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[{\"name\":\"admin_reset\"}",
			"a second document|{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[]}}{\"tools\":[{\"name\":\"admin_reset\"}]}",
			"an array at the top|[{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[{\"name\":\"admin_reset\"}]}}]",
			"two result members|{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[]},\"result\":{\"tools\":[{\"name\":\"admin_reset\"}]}}",
			"tools not an array|{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":{\"name\":\"admin_reset\"}}}" })
	void toolsListJsonReplyThatCannotBeFilteredIsWithheld(String what, String reply) {
		upstream.reply(Replies.raw(200, "application/json", reply));

		HttpResponse<String> response = post("/mcp/test/echo", validToken(),
				"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");

		assertThat(response.statusCode()).isEqualTo(502);
		assertThat(response.body()).contains("\"code\":\"upstream_reply_unfilterable\"")
			.contains("\"id\":3")
			.doesNotContain("admin_reset")
			.doesNotContain("\"tools\"");
	}

	@Test
	void toolsListEventStreamWithAnEventThatCannotBeFilteredEndsBeforeIt() {
		String progress = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
				+ "\"params\":{\"progressToken\":1,\"progress\":1}}\n\n";
		String duplicate = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[]},"
				+ "\"result\":{\"tools\":[{\"name\":\"admin_reset\"}]}}\n\n";
		upstream.reply(Replies.sse(List.of(progress, duplicate), 10));

		HttpResponse<String> response = post("/mcp/test/echo", validToken(),
				"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");

		assertThat(response.body()).isEqualTo(progress);
	}

	@Test
	void malformedJsonIsBadRequestAndNothingSentUpstream() {
		HttpResponse<String> response = post("/mcp/test/echo", validToken(), "{\"jsonrpc\":\"2.0\",");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("\"id\":null").contains("\"code\":\"invalid_request\"");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void nonObjectMessageIsBadRequest() {
		assertThat(post("/mcp/test/echo", validToken(), "\"tools/call\"").statusCode()).isEqualTo(400);
		assertThat(upstream.count()).isZero();
	}

	@Test
	void missingMethodIsBadRequest() {
		HttpResponse<String> response = post("/mcp/test/echo", validToken(), "{\"jsonrpc\":\"2.0\",\"id\":5}");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("\"code\":\"invalid_request\"");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void batchIsRejected() {
		HttpResponse<String> response = post("/mcp/test/echo", validToken(), "[" + toolCall(1, "echo") + "]");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("\"code\":\"batch_not_supported\"");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void mcpMethodHeaderThatDisagreesWithBodyIsRejected() {
		HttpResponse<String> response = post("/mcp/test/echo", validToken(), toolCall(9, "echo"), "Mcp-Method",
				"tools/list");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("\"id\":9").contains("\"code\":\"header_mismatch\"");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void mcpNameHeaderThatDisagreesWithBodyIsRejected() {
		HttpResponse<String> response = post("/mcp/test/echo", validToken(), toolCall(9, "echo"), "Mcp-Method",
				"tools/call", "Mcp-Name", "notes_create");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("\"code\":\"header_mismatch\"");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void mcpHeadersThatAgreeWithBodyPass() {
		HttpResponse<String> response = post("/mcp/test/echo", validToken(), toolCall(9, "echo"), "Mcp-Method",
				"tools/call", "Mcp-Name", "echo");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void bodyOverTheCapIsTooLargeAndNothingSentUpstream() {
		String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
				+ "\"arguments\":{\"text\":\"" + "x".repeat(1024 * 1024) + "\"}}}";

		HttpResponse<String> response = post("/mcp/test/echo", validToken(), big);

		assertThat(response.statusCode()).isEqualTo(413);
		assertThat(response.body()).contains("\"code\":\"request_too_large\"");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void nonJsonBodyIsUnsupportedMediaType() {
		HttpResponse<String> response = send(java.net.http.HttpRequest.newBuilder(uri("/mcp/test/echo"))
			.header("Authorization", "Bearer " + validToken())
			.header("Content-Type", "text/plain")
			.POST(java.net.http.HttpRequest.BodyPublishers.ofString(toolCall(1, "echo")))
			.build());

		assertThat(response.statusCode()).isEqualTo(415);
		assertThat(response.body()).contains("\"code\":\"unsupported_media_type\"");
		assertThat(response.headers().firstValue("Connection")).as("the body is not read").hasValue("close");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void notificationIsForwardedAndItsAcceptedStatusPassesThrough() {
		upstream.reply(Replies.raw(202, null, ""));

		HttpResponse<String> response = post("/mcp/test/echo", validToken(),
				"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

		assertThat(response.statusCode()).isEqualTo(202);
		assertThat(response.body()).isEmpty();
		assertThat(upstream.count()).isEqualTo(1);
	}

}
