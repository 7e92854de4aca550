package io.github.mcpgateway.policy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Prompts and resources governed one by one on a server whose grants list them (issue
 * 30): unlisted ones are hidden from the list replies and refused by name with nothing
 * sent upstream, listed ones pass; a server whose grants list none keeps today's
 * behaviour (any caller a grant applies to uses them all).
 */
class PromptsAndResourcesGovernanceIntegrationTest extends GatewayIntegrationTest {

	private static final String GOVERNED = "/mcp/test/governed";

	private final String alice = TestJwts.jwt().human("alice").team("blue").sign();

	private final String erin = TestJwts.jwt().human("erin").team("green").sign();

	@BeforeEach
	void governedServer() {
		policy.write(policy.standard() + """
				  - namespace: test
				    name: governed
				    uid: uid-governed
				    upstream: %s
				    path: %s
				    grants:
				      - principal: { team: blue }
				        tools: [echo]
				        prompts: [greeting, "review_*"]
				        resources: ["file:///docs/*"]
				      - principal: { team: green }
				        tools: [echo]
				""".formatted(upstream.url("/governed"), GOVERNED));
		this.policyReloader.reloadNow();
	}

	@Test
	void promptsListShowsOnlyTheListedPromptsAndAnUnlistedPromptIsRefused() {
		upstream.reply(Replies.jsonResult("{\"prompts\":[{\"name\":\"greeting\"},{\"name\":\"review_code\"},"
				+ "{\"name\":\"leak_secrets\"},{\"title\":\"no name\"}],\"nextCursor\":\"c2\"}"));

		HttpResponse<String> list = post(GOVERNED, this.alice, jsonRpc(1, "prompts/list", "{}"));

		assertThat(list.body()).contains("\"greeting\"").contains("\"review_code\"").contains("\"nextCursor\":\"c2\"");
		assertThat(list.body()).doesNotContain("leak_secrets").doesNotContain("no name");
		int before = upstream.count();
		HttpResponse<String> refused = post(GOVERNED, this.alice,
				jsonRpc(2, "prompts/get", "{\"name\":\"leak_secrets\"}"));
		assertThat(refused.body()).contains("\"code\":\"prompt_not_granted\"").contains("\"status\":403");
		assertThat(upstream.count()).as("nothing upstream").isEqualTo(before);
		upstream.reply(Replies.jsonResult("{\"messages\":[]}"));
		assertThat(post(GOVERNED, this.alice, jsonRpc(3, "prompts/get", "{\"name\":\"review_code\"}")).body())
			.contains("\"messages\"");
		assertThat(upstream.count()).isEqualTo(before + 1);
	}

	@Test
	void resourcesAndTemplatesAreFilteredAndAnUnlistedResourceIsRefusedForReadAndSubscribe() {
		upstream.reply(Replies.jsonResult("{\"resources\":[{\"uri\":\"file:///docs/a.md\",\"name\":\"a\"},"
				+ "{\"uri\":\"file:///etc/passwd\",\"name\":\"passwd\"}]}"));
		HttpResponse<String> list = post(GOVERNED, this.alice, jsonRpc(1, "resources/list", "{}"));
		assertThat(list.body()).contains("file:///docs/a.md").doesNotContain("passwd");
		upstream.reply(Replies.jsonResult("{\"resourceTemplates\":[{\"uriTemplate\":\"file:///docs/{name}\"},"
				+ "{\"uriTemplate\":\"file:///home/{user}/{file}\"}]}"));
		HttpResponse<String> templates = post(GOVERNED, this.alice, jsonRpc(2, "resources/templates/list", "{}"));
		assertThat(templates.body()).contains("file:///docs/{name}").doesNotContain("/home/");

		int before = upstream.count();
		for (String method : new String[] { "resources/read", "resources/subscribe" }) {
			assertThat(post(GOVERNED, this.alice, jsonRpc(3, method, "{\"uri\":\"file:///etc/passwd\"}")).body())
				.contains("\"code\":\"resource_not_granted\"");
		}
		assertThat(upstream.count()).isEqualTo(before);
		upstream.reply(Replies.jsonResult("{\"contents\":[]}"));
		assertThat(post(GOVERNED, this.alice, jsonRpc(4, "resources/read", "{\"uri\":\"file:///docs/a.md\"}")).body())
			.contains("\"contents\"");
	}

	@Test
	void aStatelessListenThatSubscribesToAnUnlistedResourceIsRefused() {
		String listen = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"subscriptions/listen\",\"params\":{\"_meta\":"
				+ "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"},\"notifications\":{\"resourceSubscriptions\":"
				+ "[\"file:///docs/a.md\",\"file:///etc/passwd\"]}}}";
		int before = upstream.count();

		HttpResponse<String> refused = post(GOVERNED, this.alice, listen, "MCP-Protocol-Version", "2026-07-28",
				"Mcp-Method", "subscriptions/listen");

		assertThat(refused.body()).contains("\"code\":\"resource_not_granted\"");
		assertThat(upstream.count()).isEqualTo(before);
	}

	@Test
	void aGrantThatListsNoPromptsGivesNoneOnAServerThatGovernsThem() {
		upstream.reply(Replies.jsonResult("{\"prompts\":[{\"name\":\"greeting\"}]}"));

		assertThat(post(GOVERNED, this.erin, jsonRpc(1, "prompts/list", "{}")).body()).doesNotContain("greeting");
		assertThat(post(GOVERNED, this.erin, jsonRpc(2, "prompts/get", "{\"name\":\"greeting\"}")).body())
			.contains("prompt_not_granted");
		assertThat(post(GOVERNED, this.erin, jsonRpc(3, "resources/read", "{\"uri\":\"file:///docs/a.md\"}")).body())
			.contains("resource_not_granted");
	}

	@Test
	void aServerWhoseGrantsListNoPromptsOrResourcesKeepsThemOpen() {
		upstream.reply(Replies.jsonResult("{\"prompts\":[{\"name\":\"anything\"}]}"));
		String token = TestJwts.jwt().human("alice").team("blue").sign();

		assertThat(post("/mcp/test/echo", token, jsonRpc(1, "prompts/list", "{}")).body()).contains("anything");
		upstream.reply(Replies.jsonResult("{\"messages\":[]}"));
		assertThat(post("/mcp/test/echo", token, jsonRpc(2, "prompts/get", "{\"name\":\"anything\"}")).body())
			.contains("\"messages\"");
		upstream.reply(Replies.jsonResult("{\"contents\":[]}"));
		assertThat(
				post("/mcp/test/echo", token, jsonRpc(3, "resources/read", "{\"uri\":\"file:///etc/passwd\"}")).body())
			.contains("\"contents\"");
	}

	@Test
	void explainDecidesPromptsAndResourcesAsTheRequestPathDoes() {
		String who = "&human=alice&agent=agent-1&team=blue";

		JsonNode allowed = explain("server=" + GOVERNED + who + "&prompt=review_code");
		JsonNode prompt = explain("server=" + GOVERNED + who + "&prompt=leak_secrets");
		JsonNode resource = explain("server=" + GOVERNED + who + "&resource=file:///etc/passwd");

		assertThat(allowed.get("allowed").asBoolean()).isTrue();
		assertThat(allowed.get("grant").get("index").asInt()).isZero();
		assertThat(prompt.get("errorCode").asString()).isEqualTo("prompt_not_granted");
		assertThat(prompt.get("reason").asString()).isEqualTo("no_applying_grant_lists_prompt");
		assertThat(resource.get("errorCode").asString()).isEqualTo("resource_not_granted");
		assertThat(post(GOVERNED, this.alice, jsonRpc(9, "resources/read", "{\"uri\":\"file:///etc/passwd\"}")).body())
			.contains("\"code\":\"" + resource.get("errorCode").asString() + "\"");
		assertThat(explain("server=/mcp/test/echo" + who + "&prompt=leak_secrets").get("allowed").asBoolean())
			.as("a server that does not govern prompts")
			.isTrue();
	}

	@Test
	void aResumedStreamThatReplaysAListReplyIsFilteredForEveryGovernedKind() {
		upstream.reply(Replies.sse(List.of(
				"id: 3\ndata: {\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"prompts\":[{\"name\":\"greeting\"},"
						+ "{\"name\":\"leak_secrets\"}]}}\n\n",
				"id: 4\ndata: {\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{\"resources\":[{\"uri\":\"file:///etc/passwd\"}]}}\n\n"),
				0));

		HttpResponse<String> resumed = send(HttpRequest.newBuilder(uri(GOVERNED))
			.header("Authorization", "Bearer " + this.alice)
			.header("Accept", "text/event-stream")
			.header("Last-Event-ID", "2")
			.header("MCP-Protocol-Version", "2025-06-18")
			.GET()
			.build());

		assertThat(resumed.statusCode()).isEqualTo(200);
		assertThat(resumed.body()).contains("greeting").doesNotContain("leak_secrets").doesNotContain("passwd");
	}

}
