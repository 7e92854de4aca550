package io.github.mcpgateway.e2e;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.CompleteRequest;
import io.modelcontextprotocol.spec.McpSchema.CompleteRequest.CompleteArgument;
import io.modelcontextprotocol.spec.McpSchema.CompleteResult;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageResult;
import io.modelcontextprotocol.spec.McpSchema.GetPromptRequest;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.PromptReference;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.assertj.core.api.ThrowingConsumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.support.TestJwts;

import static io.github.mcpgateway.e2e.GatewayProcess.VIRTUAL;
import static io.github.mcpgateway.e2e.GatewayProcess.VIRTUAL_EVERYTHING;
import static io.github.mcpgateway.e2e.GatewayProcess.VIRTUAL_EXCEPTED;
import static io.github.mcpgateway.e2e.GatewayProcess.VIRTUAL_STATELESS;
import static io.github.mcpgateway.e2e.GatewayProcess.VIRTUAL_TEAM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A virtual server (ADR 0021) with MCP clients and servers nobody here wrote: the
 * packaged gateway serves, on {@link GatewayProcess#VIRTUAL}, the tools of the reference
 * server-everything (2025-11-25, sessions, event streams) under the prefix {@code every}
 * and of a server on the TypeScript SDK v2 ({@code v2-server.mjs}, stateless, its 2025
 * leg) under {@code demo}. Three clients use it as an application would, each with its
 * own bearer token: the TypeScript SDK v1 1.32.2 and v2 2.4.0
 * ({@code virtual-client.mjs}, run once per SDK; each test reads one part of the reports)
 * and the Java SDK 2.1.0. Each lists the merged tools, calls one tool of each member, the
 * member's excepted tool ({@code tool_not_granted}, decided by the member's own grant)
 * and a name whose prefix is no member's ({@code tool_unknown}). Skipped where
 * {@code node} or {@code npm} is missing.
 */
class VirtualServerSdkIT {

	private static final String V1 = "v1";

	private static final String V2 = "v2";

	private static final String EVERY_ECHO = VIRTUAL_EVERYTHING + "_echo";

	/** The 2026-07-28 server has no echo: this tool answers with the arguments it got. */
	private static final String DEMO_ECHO = VIRTUAL_STATELESS + "_json_schema_2020_12_tool";

	private static final String EXCEPTED = VIRTUAL_EVERYTHING + "_" + VIRTUAL_EXCEPTED;

	private static final String UNKNOWN_PREFIX = "other_echo";

	@RegisterExtension
	static final GatewayProcess gateway = new GatewayProcess("virtual-sdk");

	private static NodeInterop node;

	private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private static Map<String, JsonNode> reports;

	/** What virtual-methods-client.mjs saw, by SDK. */
	private static Map<String, JsonNode> methods;

	private final List<McpSyncClient> clients = new CopyOnWriteArrayList<>();

	@BeforeAll
	static void startTheMembersTheGatewayAndTheTypeScriptClients() throws Exception {
		node = NodeInterop.installed();
		int everything = node.startServerEverything("virtual-sdk-everything").port();
		gateway.alsoInFrontOfStatelessServer(node.startStatelessServer("virtual-sdk-v2-server").port());
		gateway.alsoVirtualServer();
		gateway.startInFrontOf(everything);
		reports = Map.of(V1, typeScriptClient(V1), V2, typeScriptClient(V2));
		methods = Map.of(V1, methodsClient(V1), V2, methodsClient(V2));
	}

	private static JsonNode methodsClient(String sdk) throws Exception {
		NodeInterop.Finished run = node.run("virtual-methods-client-" + sdk,
				Map.of("SDK", sdk, "MCP_URL", gateway.url(VIRTUAL), "MCP_TOKEN", token("virtual-methods-" + sdk),
						"EVERY", VIRTUAL_EVERYTHING, "OTHER", VIRTUAL_STATELESS),
				Duration.ofSeconds(100), "virtual-methods-client.mjs");
		return run.report("The TypeScript SDK " + sdk + " client using every method on the virtual server");
	}

	private static JsonNode typeScriptClient(String sdk) throws Exception {
		String calls = JsonMapper.shared()
			.writeValueAsString(List.of(call("demoEcho", DEMO_ECHO, Map.of("name", sdk, "email", sdk + "@example.org")),
					call("excepted", EXCEPTED, Map.of()), call("unknownPrefix", UNKNOWN_PREFIX, Map.of("message", "x")),
					// Last: server-everything's reply names its own session (see the
					// disabled tests).
					call("everyEcho", EVERY_ECHO, Map.of("message", "hello every from " + sdk)),
					call("everyEchoAgain", EVERY_ECHO, Map.of("message", "again from " + sdk))));
		NodeInterop.Finished run = node.run("virtual-client-" + sdk, Map.of("SDK", sdk, "MCP_URL", gateway.url(VIRTUAL),
				"MCP_TOKEN", token("virtual-" + sdk), "CALLS", calls), Duration.ofSeconds(70), "virtual-client.mjs");
		return run.report("The TypeScript SDK " + sdk + " client on the virtual server");
	}

	private static Map<String, Object> call(String step, String tool, Map<String, Object> arguments) {
		return Map.of("step", step, "tool", tool, "arguments", arguments);
	}

	/**
	 * A token with the gateway-wide audience ({@code gateway.identity.oauth.audiences}).
	 * Not the virtual server's RFC 8707 resource URI, which the gateway refuses on the
	 * virtual path today: see
	 * {@link #javaClientWithATokenForTheVirtualServersOwnResourceUriIsAccepted}.
	 */
	private static String token(String agent) {
		return TestJwts.jwt().human("vera").team(VIRTUAL_TEAM).agent(agent).sign();
	}

	@AfterEach
	void closeJavaClients() {
		this.clients.forEach(McpSyncClient::closeGracefully);
	}

	@AfterAll
	static void stopEverything() throws InterruptedException {
		gateway.stopAfter(node);
	}

	// ---- TypeScript SDK v1 and v2 --------------------------------------------------

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void typeScriptClientConnectsToOneSessionNamedForTheVirtualServer(String sdk) {
		JsonNode report = reports.get(sdk);
		assertThat(report.path("failures").values()).as(report.toString()).isEmpty();
		// The client's GET stream: the members' streams merged. Its headers may still be
		// on their way when this short script ends (status null); it is never refused.
		// That it carries the members' notifications: the methods client's steps.
		assertThat(report.path("exchanges").values())
			.filteredOn((exchange) -> "GET".equals(exchange.path("method").asString()))
			.isNotEmpty()
			.allSatisfy(
					(exchange) -> assertThat(exchange.path("status").isNull() || exchange.path("status").asInt() == 200)
						.as(exchange.toString())
						.isTrue());
		assertThat(report.path("sessionId").isString()).as(report.toString()).isTrue();
		assertThat(report.path("server").path("name").asString()).isEqualTo("test/workspace");
		assertThat(report.path("protocolVersion").asString()).isEqualTo("2025-11-25");
	}

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void typeScriptClientListsBothMembersToolsUnderTheirPrefixesButTheExceptedOne(String sdk) {
		assertMergedList(strings(reports.get(sdk).path("tools")));
	}

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void typeScriptClientCallsReachEachMemberWithItsOwnToolName(String sdk) {
		JsonNode every = step(sdk, "everyEcho");
		assertThat(every.path("isError").asBoolean(true)).as(every.toString()).isFalse();
		assertThat(every.path("text").asString()).isEqualTo("Echo: hello every from " + sdk);
		JsonNode demo = step(sdk, "demoEcho");
		assertThat(demo.path("isError").asBoolean(true)).as(demo.toString()).isFalse();
		assertThat(demo.path("text").asString()).startsWith("JSON Schema 2020-12 tool called with: ")
			.contains("\"name\":\"" + sdk + "\"");
	}

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void typeScriptClientGetsTheMembersExceptAsToolNotGranted(String sdk) {
		JsonNode error = step(sdk, "excepted").path("error");
		assertThat(error.path("name").asString()).as(error.toString()).isEqualTo(protocolError(sdk));
		assertThat(error.path("code").asInt()).isEqualTo(-32002);
		assertThat(error.path("dataCode").asString()).isEqualTo("tool_not_granted");
		assertThat(error.path("dataStatus").asInt()).isEqualTo(403);
	}

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void typeScriptClientGetsToolUnknownForAPrefixNoMemberHas(String sdk) {
		JsonNode error = step(sdk, "unknownPrefix").path("error");
		assertThat(error.path("name").asString()).as(error.toString()).isEqualTo(protocolError(sdk));
		assertThat(error.path("code").asInt()).isEqualTo(-32602);
		assertThat(error.path("dataCode").asString()).isEqualTo("tool_unknown");
	}

	@Test
	void typeScriptV2ClientKeepsItsVirtualSessionAfterACallToAMemberWithSessionsAndEndsIt() {
		assertKeepsItsVirtualSessionAndEndsIt(V2);
	}

	/**
	 * The SDK v1 transport takes the {@code Mcp-Session-Id} of EVERY response as its
	 * session id ({@code StreamableHTTPClientTransport.send}: "Handle session ID received
	 * during initialization", applied to any response), v2 and the Java SDK only the
	 * handshake's. See
	 * {@link #everyResponseOfTheVirtualServerNamesOnlyTheVirtualSession}.
	 */
	@Test
	void typeScriptV1ClientKeepsItsVirtualSessionAfterACallToAMemberWithSessionsAndEndsIt() {
		assertKeepsItsVirtualSessionAndEndsIt(V1);
	}

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void everyResponseOfTheVirtualServerNamesOnlyTheVirtualSession(String sdk) {
		JsonNode report = reports.get(sdk);
		String session = report.path("sessionId").asString();
		assertThat(report.path("exchanges").values()).as(report.path("exchanges").toString())
			.allSatisfy(
					(exchange) -> assertThat(exchange.path("answeredSession").asString(session)).isEqualTo(session));
	}

	private static void assertKeepsItsVirtualSessionAndEndsIt(String sdk) {
		JsonNode report = reports.get(sdk);
		JsonNode again = step(sdk, "everyEchoAgain");
		assertThat(again.path("text").asString()).as(again.toString()).isEqualTo("Echo: again from " + sdk);
		assertThat(report.path("exchanges").values()).as(report.path("exchanges").toString())
			.filteredOn((exchange) -> exchange.path("sentSession").isString())
			.allSatisfy((exchange) -> assertThat(exchange.path("sentSession").asString())
				.isEqualTo(report.path("sessionId").asString()));
		assertThat(report.path("deleted").asInt()).as(report.path("exchanges").toString()).isEqualTo(204);
	}

	// ---- Every method, through the TypeScript SDK v1 and v2 -------------------------

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void typeScriptClientSeesTheMembersCapabilitiesMerged(String sdk) {
		JsonNode report = methods.get(sdk);
		assertThat(report.path("failures").values()).as(report.toString()).isEmpty();
		assertThat(report.path("capabilities").properties()).extracting(Map.Entry::getKey)
			.as(report.path("capabilities").toString())
			.contains("tools", "prompts", "resources", "logging", "completions");
		assertThat(methodStep(sdk, "ping").path("pong").asBoolean()).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void typeScriptClientListsGetsAndCompletesTheMembersPromptsUnderTheirPrefix(String sdk) {
		assertThat(strings(methodStep(sdk, "listPrompts").path("names"))).as(methods.get(sdk).toString())
			.contains(VIRTUAL_EVERYTHING + "_simple-prompt", VIRTUAL_EVERYTHING + "_args-prompt",
					VIRTUAL_EVERYTHING + "_completable-prompt", VIRTUAL_STATELESS + "_test_simple_prompt")
			.doesNotHaveDuplicates()
			.allSatisfy(
					(name) -> assertThat(name).matches("(" + VIRTUAL_EVERYTHING + "|" + VIRTUAL_STATELESS + ")_.+"));
		assertThat(methodStep(sdk, "getPrompt").path("text").asString()).contains("Lisbon");
		assertThat(methodStep(sdk, "getOtherPrompt").path("messages").asInt()).as(methods.get(sdk).toString())
			.isPositive();
		assertThat(strings(methodStep(sdk, "completePrompt").path("values"))).contains("Engineering");
		assertThat(methodStep(sdk, "unknownPrompt").path("error").path("dataCode").asString())
			.isEqualTo("prompt_unknown");
	}

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void typeScriptClientReadsAndSubscribesToTheMembersResourcesByTheirOwnUris(String sdk) {
		List<String> uris = strings(methodStep(sdk, "listResources").path("uris"));
		// Both members' resources, by the URIs each member wrote: server-everything's
		// demo://, the 2026-07-28 server's test://.
		assertThat(uris).as(methods.get(sdk).toString())
			.contains("demo://resource/static/document/features.md", "test://static-text")
			.doesNotHaveDuplicates()
			.allSatisfy((uri) -> assertThat(uri).matches("(demo://resource/|test://).+"));
		assertThat(strings(methodStep(sdk, "listTemplates").path("templates")))
			.contains("demo://resource/dynamic/text/{resourceId}", "test://template/{id}/data");
		assertThat(methodStep(sdk, "readListed").path("uri").asString()).isIn(uris);
		assertThat(methodStep(sdk, "readListed").path("length").asInt()).isPositive();
		assertThat(methodStep(sdk, "readFromTemplate").path("uri").asString())
			.isEqualTo("demo://resource/dynamic/text/7");
		assertThat(methodStep(sdk, "readOther").path("uri").asString()).as(methods.get(sdk).toString())
			.isEqualTo("test://static-text");
		assertThat(methodStep(sdk, "readOtherTemplate").path("uri").asString()).isEqualTo("test://template/5/data");
		assertThat(methodStep(sdk, "readUnknown").path("error").path("dataCode").asString())
			.isEqualTo("resource_unknown");
		assertThat(methodStep(sdk, "completeResource").path("values").isArray()).as(methods.get(sdk).toString())
			.isTrue();
		assertThat(methodStep(sdk, "subscribe").path("subscribed").asBoolean()).isTrue();
		assertThat(methodStep(sdk, "updates").path("updated").asBoolean()).as(methods.get(sdk).toString()).isTrue();
		assertThat(methods.get(sdk).path("notified").values())
			.filteredOn((n) -> "notifications/resources/updated".equals(n.path("method").asString()))
			.allSatisfy((n) -> assertThat(n.path("uri").asString())
				.isEqualTo(methodStep(sdk, "readListed").path("uri").asString()));
		assertThat(methodStep(sdk, "listChanged").path("changed").asBoolean()).isTrue();
		assertThat(methodStep(sdk, "unsubscribe").path("unsubscribed").asBoolean()).isTrue();
		assertThat(methodStep(sdk, "setLevel").path("set").asBoolean()).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void typeScriptClientAnswersTheMembersSamplingAndElicitationAndGetsItsProgress(String sdk) {
		JsonNode report = methods.get(sdk);
		assertThat(report.path("sampled").values()).as(report.toString())
			.singleElement()
			.satisfies((request) -> assertThat(request.path("text").asString()).endsWith("say hello"));
		assertThat(methodStep(sdk, "sampling").path("text").asString()).contains("sampled by the client");
		assertThat(report.path("elicited").values()).hasSize(1);
		assertThat(methodStep(sdk, "elicitation").path("text").asString()).contains("Vera");
		JsonNode progress = methodStep(sdk, "progress");
		assertThat(progress.path("updates").asInt()).as(report.toString()).isGreaterThanOrEqualTo(2);
		assertThat(progress.path("text").asString()).isNotBlank();
	}

	@Test
	void typeScriptV1ClientRunsAMembersTaskToItsResultUnderANamespacedId() {
		JsonNode task = methodStep(V1, "task");
		assertThat(task.path("taskId").asString()).as(methods.get(V1).toString()).startsWith(VIRTUAL_EVERYTHING + "_");
		assertThat(task.path("text").asString()).isNotBlank();
		assertThat(task.path("gotStatus").asString()).isEqualTo("completed");
		assertThat(strings(task.path("listed"))).contains(task.path("taskId").asString())
			.allSatisfy((id) -> assertThat(id).startsWith(VIRTUAL_EVERYTHING + "_"));
	}

	private static JsonNode methodStep(String sdk, String name) {
		return methods.get(sdk).path("steps").path(name);
	}

	// ---- 2026-07-28, stateless ------------------------------------------------------

	/**
	 * A 2026-07-28 client (no initialize, no session: each request carries its revision
	 * and capabilities) on the virtual server: discovery merges what the members that
	 * speak that revision answer, their lists are merged, a call reaches its member. The
	 * 2025-only member (server-everything) answers a stateless request as it would on its
	 * own path, so its items are not in a stateless client's lists.
	 */
	@Test
	void aStatelessClientDiscoversListsAndCallsThroughTheVirtualServerWithoutASession() throws Exception {
		HttpResponse<String> discover = stateless(1, "server/discover", null, "{}");
		HttpResponse<String> list = stateless(2, "tools/list", null, "{}");
		HttpResponse<String> call = stateless(3, "tools/call", DEMO_ECHO,
				"{\"name\":\"" + DEMO_ECHO + "\",\"arguments\":{\"name\":\"stateless\",\"email\":\"s@example.org\"}}");

		assertThat(discover.statusCode()).as(discover.body()).isEqualTo(200);
		JsonNode discovered = JsonMapper.shared().readTree(discover.body()).path("result");
		assertThat(strings(discovered.path("supportedVersions"))).containsExactly("2026-07-28");
		assertThat(discovered.path("capabilities").has("tools")).isTrue();
		assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
		List<String> tools = strings(JsonMapper.shared().readTree(list.body()).path("result").path("tools"), "name");
		assertThat(tools).contains(DEMO_ECHO, VIRTUAL_STATELESS + "_test_simple_text")
			.allSatisfy((name) -> assertThat(name).startsWith(VIRTUAL_STATELESS + "_"));
		assertThat(call.statusCode()).as(call.body()).isEqualTo(200);
		assertThat(call.body()).contains("JSON Schema 2020-12 tool called with: ").contains("stateless");
		assertThat(List.of(discover, list, call))
			.allSatisfy((response) -> assertThat(response.headers().firstValue("Mcp-Session-Id")).isEmpty());
	}

	/**
	 * A 2026-07-28 {@code subscriptions/listen}: acknowledged once by the virtual server
	 * with what it listens for (a URI no member serves left out), then a member's list
	 * change reaches the client's stream with the client's subscription id.
	 */
	@Test
	void aStatelessClientsListenStreamCarriesItsMembersNotifications() throws Exception {
		HttpRequest listen = statelessRequest(41, "subscriptions/listen", null,
				"{\"notifications\":{\"toolsListChanged\":true,"
						+ "\"resourceSubscriptions\":[\"test://watched-resource\",\"nowhere://nothing\"]}}")
			.build();
		HttpResponse<Stream<String>> stream = HTTP.sendAsync(listen, HttpResponse.BodyHandlers.ofLines())
			.get(20, TimeUnit.SECONDS);
		Iterator<String> lines = stream.body().filter((line) -> line.startsWith("data:")).iterator();
		CompletableFuture<String> acknowledged = CompletableFuture.supplyAsync(lines::next);
		JsonNode ack = JsonMapper.shared().readTree(acknowledged.get(20, TimeUnit.SECONDS).substring(5));

		CompletableFuture<String> changed = CompletableFuture.supplyAsync(lines::next);
		HttpResponse<String> trigger = stateless(42, "tools/call", VIRTUAL_STATELESS + "_test_trigger_tool_change",
				"{\"name\":\"" + VIRTUAL_STATELESS + "_test_trigger_tool_change\",\"arguments\":{}}");
		JsonNode notification = JsonMapper.shared().readTree(changed.get(20, TimeUnit.SECONDS).substring(5));

		assertThat(stream.statusCode()).isEqualTo(200);
		assertThat(ack.path("method").asString()).isEqualTo("notifications/subscriptions/acknowledged");
		assertThat(ack.path("params").path("_meta").path("io.modelcontextprotocol/subscriptionId").asInt())
			.isEqualTo(41);
		assertThat(strings(ack.path("params").path("notifications").path("resourceSubscriptions")))
			.containsExactly("test://watched-resource");
		assertThat(trigger.statusCode()).as(trigger.body()).isEqualTo(200);
		assertThat(notification.path("method").asString()).as(notification.toString())
			.isEqualTo("notifications/tools/list_changed");
		assertThat(notification.path("params").path("_meta").path("io.modelcontextprotocol/subscriptionId").asInt())
			.isEqualTo(41);
		stream.body().close();
	}

	private static HttpResponse<String> stateless(int id, String method, String name, String params) throws Exception {
		return HTTP.send(statelessRequest(id, method, name, params).build(), HttpResponse.BodyHandlers.ofString());
	}

	private static HttpRequest.Builder statelessRequest(int id, String method, String name, String params) {
		String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
				+ "\"io.modelcontextprotocol/clientCapabilities\":{}}";
		String withMeta = params.equals("{}") ? "{" + meta + "}" : "{" + meta + "," + params.substring(1);
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.url(VIRTUAL)))
			.header("Authorization", "Bearer " + token("virtual-stateless"))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", method)
			.POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method
					+ "\",\"params\":" + withMeta + "}"));
		if (name != null) {
			request.header("Mcp-Name", name);
		}
		return request;
	}

	private static List<String> strings(JsonNode array, String field) {
		return array.valueStream().map((item) -> item.path(field).asString()).toList();
	}

	// ---- Java SDK --------------------------------------------------------------------

	@Test
	void javaClientInitializesOneSessionNamedForTheVirtualServer() {
		McpSyncClient client = javaClient();

		InitializeResult initialized = client.initialize();

		assertThat(initialized.serverInfo().name()).isEqualTo("test/workspace");
		assertThat(initialized.capabilities().tools()).isNotNull();
		assertThat(initialized.protocolVersion()).isEqualTo("2025-11-25");
	}

	@Test
	void javaClientListsBothMembersToolsUnderTheirPrefixesButTheExceptedOne() {
		McpSyncClient client = initialized();

		assertMergedList(client.listTools().tools().stream().map(Tool::name).toList());
	}

	@Test
	void javaClientCallsReachEachMemberWithItsOwnToolName() {
		McpSyncClient client = initialized();

		CallToolResult every = client.callTool(new CallToolRequest(EVERY_ECHO, Map.of("message", "hello from java")));
		// After server-everything's reply, which names its own session: the Java SDK
		// keeps
		// the virtual session.
		CallToolResult demo = client
			.callTool(new CallToolRequest(DEMO_ECHO, Map.of("name", "java", "email", "java@example.org")));

		assertThat(every.isError()).isNotEqualTo(Boolean.TRUE);
		assertThat(text(every)).isEqualTo("Echo: hello from java");
		assertThat(demo.isError()).isNotEqualTo(Boolean.TRUE);
		assertThat(text(demo)).startsWith("JSON Schema 2020-12 tool called with: ").contains("\"name\":\"java\"");
	}

	@Test
	void javaClientListsGetsAndCompletesPromptsAndReadsResourcesOfEachMember() {
		McpSyncClient client = initialized();

		List<String> prompts = client.listPrompts().prompts().stream().map(Prompt::name).toList();
		GetPromptResult prompt = client
			.getPrompt(new GetPromptRequest(VIRTUAL_EVERYTHING + "_args-prompt", Map.of("city", "Porto")));
		CompleteResult completion = client
			.completeCompletion(new CompleteRequest(new PromptReference(VIRTUAL_EVERYTHING + "_completable-prompt"),
					new CompleteArgument("department", "S")));
		List<String> uris = client.listResources().resources().stream().map(Resource::uri).toList();
		ReadResourceResult everything = client
			.readResource(new ReadResourceRequest("demo://resource/static/document/features.md"));
		ReadResourceResult other = client.readResource(new ReadResourceRequest("test://static-text"));

		assertThat(prompts).contains(VIRTUAL_EVERYTHING + "_args-prompt", VIRTUAL_STATELESS + "_test_simple_prompt");
		assertThat(((TextContent) prompt.messages().get(0).content()).text()).contains("Porto");
		assertThat(completion.completion().values()).containsExactlyInAnyOrder("Sales", "Support");
		assertThat(uris).contains("demo://resource/static/document/features.md", "test://static-text");
		assertThat(everything.contents()).singleElement()
			.satisfies((content) -> assertThat(content.uri()).isEqualTo("demo://resource/static/document/features.md"));
		assertThat(other.contents()).singleElement()
			.satisfies((content) -> assertThat(content.uri()).isEqualTo("test://static-text"));
	}

	/**
	 * The member's sampling request reaches the Java client, which offered sampling, and
	 * its answer reaches the member (the tool's result quotes it).
	 */
	@Test
	void javaClientAnswersTheMembersSamplingRequest() {
		String url = gateway.url(VIRTUAL);
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder(url.substring(0, url.indexOf("/mcp/")))
			.endpoint(VIRTUAL)
			.clientBuilder(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1))
			.requestBuilder(
					HttpRequest.newBuilder().header("Authorization", "Bearer " + token("virtual-java-sampling")))
			.build();
		List<String> asked = new CopyOnWriteArrayList<>();
		McpSyncClient client = McpClient.sync(transport)
			.requestTimeout(Duration.ofSeconds(20))
			.capabilities(ClientCapabilities.builder().sampling().build())
			.sampling((request) -> {
				asked.add(((TextContent) request.messages().get(0).content()).text());
				return CreateMessageResult.builder()
					.role(Role.ASSISTANT)
					.content(new TextContent("sampled by java"))
					.model("virtual-java-model")
					.build();
			})
			.build();
		this.clients.add(client);
		client.initialize();

		CallToolResult result = client.callTool(new CallToolRequest(VIRTUAL_EVERYTHING + "_trigger-sampling-request",
				Map.of("prompt", "java says hi", "maxTokens", 20)));

		assertThat(asked).singleElement().satisfies((text) -> assertThat(text).endsWith("java says hi"));
		assertThat(text(result)).contains("sampled by java");
	}

	@Test
	void javaClientGetsTheMembersExceptAsToolNotGranted() {
		McpSyncClient client = initialized();

		assertThatExceptionOfType(McpError.class)
			.isThrownBy(() -> client.callTool(new CallToolRequest(EXCEPTED, Map.of())))
			.satisfies(refusal(-32002, "tool_not_granted"));
	}

	@Test
	void javaClientGetsToolUnknownForAPrefixNoMemberHas() {
		McpSyncClient client = initialized();

		assertThatExceptionOfType(McpError.class)
			.isThrownBy(() -> client.callTool(new CallToolRequest(UNKNOWN_PREFIX, Map.of("message", "x"))))
			.satisfies(refusal(-32602, "tool_unknown"));
	}

	/**
	 * What a spec-following client does: the 401 on the virtual path names the metadata
	 * {@code /.well-known/oauth-protected-resource/mcp/test/workspace}, whose
	 * {@code resource} is {@code <base>/mcp/test/workspace}, and the client asks the
	 * authorization server for a token with that audience (RFC 9728, RFC 8707).
	 */
	@Test
	void javaClientWithATokenForTheVirtualServersOwnResourceUriIsAccepted() {
		McpSyncClient client = javaClient(TestJwts.jwt()
			.human("vera")
			.team(VIRTUAL_TEAM)
			.agent("virtual-java-resource")
			.audience(gateway.url(VIRTUAL))
			.sign());

		assertThat(client.initialize().serverInfo().name()).isEqualTo("test/workspace");
	}

	private McpSyncClient initialized() {
		McpSyncClient client = javaClient();
		client.initialize();
		return client;
	}

	private McpSyncClient javaClient() {
		return javaClient(token("virtual-java"));
	}

	private McpSyncClient javaClient(String token) {
		String url = gateway.url(VIRTUAL);
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder(url.substring(0, url.indexOf("/mcp/")))
			.endpoint(VIRTUAL)
			.clientBuilder(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1))
			.requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
			.build();
		McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build();
		this.clients.add(client);
		return client;
	}

	// ---- What every client must see ------------------------------------------------

	/**
	 * Both members' tools, each under its member's prefix, and not the tool the member's
	 * grant excepts. server-everything lists some tools only to clients with matching
	 * capabilities, and the gateway offers its members none, so only tools every client
	 * sees are named.
	 */
	private static void assertMergedList(List<String> tools) {
		assertThat(tools)
			.contains(EVERY_ECHO, VIRTUAL_EVERYTHING + "_get-sum", VIRTUAL_EVERYTHING + "_get-tiny-image", DEMO_ECHO,
					VIRTUAL_STATELESS + "_test_simple_text", VIRTUAL_STATELESS + "_test_error_handling")
			.doesNotContain(EXCEPTED, VIRTUAL_EXCEPTED, "echo")
			.doesNotHaveDuplicates()
			.allSatisfy(
					(name) -> assertThat(name).matches("(" + VIRTUAL_EVERYTHING + "|" + VIRTUAL_STATELESS + ")_.+"));
	}

	private static ThrowingConsumer<McpError> refusal(int rpcCode, String code) {
		return (error) -> {
			assertThat(error.getJsonRpcError().code()).isEqualTo(rpcCode);
			assertThat(error.getJsonRpcError().data())
				.asInstanceOf(InstanceOfAssertFactories.map(String.class, Object.class))
				.containsEntry("code", code);
		};
	}

	private static String protocolError(String sdk) {
		return V1.equals(sdk) ? "McpError" : "ProtocolError";
	}

	private static JsonNode step(String sdk, String name) {
		JsonNode step = reports.get(sdk).path("steps").path(name);
		assertThat(step.isObject()).as("step %s of the %s report: %s", name, sdk, reports.get(sdk)).isTrue();
		return step;
	}

	private static List<String> strings(JsonNode array) {
		return array.valueStream().map(JsonNode::asString).toList();
	}

	private static String text(CallToolResult result) {
		return ((TextContent) result.content().get(0)).text();
	}

}
