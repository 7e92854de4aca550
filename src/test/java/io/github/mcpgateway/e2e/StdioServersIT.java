package io.github.mcpgateway.e2e;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * Stdio servers (ADR 0023) with MCP software nobody here wrote: the packaged gateway runs
 * the reference server-memory, server-filesystem and server-everything (its stdio
 * transport) as child processes, one per session, and the official TypeScript SDK clients
 * (v1 1.32.2 and v2 2.4.0, {@code stdio-client.mjs}) and the Java SDK client (2.1.0) use
 * them through it: lists filtered by grants, an ungranted tool refused with nothing
 * written to the process, a keyed call replayed, two humans' sessions in separate
 * processes, a killed process, the idle timeout and the per-principal cap, and the
 * gateway's own environment kept from the child. Skipped where {@code node} or
 * {@code npm} is missing.
 */
class StdioServersIT {

	private static final String MEMORY = "/mcp/test/stdio-memory";

	private static final String FILES = "/mcp/test/stdio-files";

	private static final String EVERYTHING = "/mcp/test/stdio-everything";

	private static final String CAPPED = "/mcp/test/stdio-capped";

	private static final String SHARED = "/mcp/test/stdio-shared";

	/** A variable of the gateway's own environment that no child may see. */
	private static final String MARKER = "gateway-marker-" + UUID.randomUUID();

	private static final String RUN = Long.toString(System.nanoTime(), 36);

	private static final Pattern STARTED_PID = Pattern.compile("\"stdio_process\":\"started\".*\"pid\":(\\d+)");

	@RegisterExtension
	static final GatewayProcess gateway = new GatewayProcess("stdio");

	private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private static NodeInterop node;

	private static Path rootA;

	private static Path rootB;

	private static Map<String, JsonNode> reports;

	private final List<McpSyncClient> clients = new CopyOnWriteArrayList<>();

	@BeforeAll
	static void startTheGatewayWithItsStdioServersAndRunTheTypeScriptClients() throws Exception {
		node = NodeInterop.installed();
		Path roots = Files.createTempDirectory(NodeInterop.LOGS, "stdio-roots-").toRealPath();
		rootA = Files.createDirectories(roots.resolve("a"));
		rootB = Files.createDirectories(roots.resolve("b"));
		gateway.environment("STDIO_IT_MARKER", MARKER);
		gateway.alsoServers(policy(roots));
		// Nothing listens on server-everything's port: this gateway's HTTP servers are
		// not
		// used here.
		gateway.startInFrontOf(NodeInterop.freePort(), 0);
		reports = Map.of("v1", typeScriptClient("v1"), "v2", typeScriptClient("v2"));
	}

	private static String policy(Path roots) {
		String memory = node.module("@modelcontextprotocol/server-memory/dist/index.js").toString();
		return """
				  - namespace: test
				    name: stdio-memory
				    uid: uid-stdio-memory
				    path: %1$s
				    stdio:
				      command: [node, "%2$s"]
				      environment:
				        MEMORY_FILE_PATH: "%3$s"
				    grants:
				      - tools: [create_entities, search_nodes, read_graph]
				  - namespace: test
				    name: stdio-files
				    uid: uid-stdio-files
				    path: %4$s
				    stdio:
				      command: [node, "%5$s", "%6$s"]
				    grants:
				      - tools: ["*"]
				        except: [move_file]
				  - namespace: test
				    name: stdio-everything
				    uid: uid-stdio-everything
				    path: %7$s
				    stdio:
				      command: [node, "%8$s", stdio]
				      environment:
				        VISIBLE: from the policy
				    grants:
				      - tools: [get-env, echo]
				  - namespace: test
				    name: stdio-capped
				    uid: uid-stdio-capped
				    path: %9$s
				    stdio:
				      command: [node, "%2$s"]
				      environment:
				        MEMORY_FILE_PATH: "%10$s"
				      idle-timeout: 4s
				      max-processes-per-principal: 1
				    grants:
				      - tools: ["*"]
				  - namespace: test
				    name: stdio-shared
				    uid: uid-stdio-shared
				    path: %11$s
				    stdio:
				      command: [node, "%2$s"]
				      environment:
				        MEMORY_FILE_PATH: "%12$s"
				      process: shared
				    grants:
				      - tools: [create_entities, search_nodes, read_graph]
				""".formatted(MEMORY, memory,
				NodeInterop.LOGS.resolve("stdio-memory-" + RUN + ".jsonl").toAbsolutePath(), FILES,
				node.module("@modelcontextprotocol/server-filesystem/dist/index.js"), roots, EVERYTHING,
				node.module("@modelcontextprotocol/server-everything/dist/index.js"), CAPPED,
				NodeInterop.LOGS.resolve("stdio-capped-" + RUN + ".jsonl").toAbsolutePath(), SHARED,
				NodeInterop.LOGS.resolve("stdio-shared-" + RUN + ".jsonl").toAbsolutePath());
	}

	private static JsonNode typeScriptClient(String sdk) throws Exception {
		NodeInterop.Finished run = node.run("stdio-client-" + sdk,
				Map.of("SDK", sdk, "MEMORY_URL", gateway.url(MEMORY), "FILES_URL", gateway.url(FILES), "SHARED_URL",
						gateway.url(SHARED), "TOKEN_A", token("ada", "ts-" + sdk), "TOKEN_B", token("bo", "ts-" + sdk),
						"ROOT_A", rootA.toString(), "ROOT_B", rootB.toString(), "RUN", RUN),
				Duration.ofSeconds(100), "stdio-client.mjs");
		return run.report("The TypeScript SDK " + sdk + " client on the stdio servers");
	}

	private static String token(String human, String agent) {
		return TestJwts.jwt().human(human).agent(agent).sign();
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
	@ValueSource(strings = { "v1", "v2" })
	void typeScriptClientSeesTheListsFilteredByTheGrants(String sdk) {
		JsonNode report = reports.get(sdk);
		assertThat(report.path("failures").values()).as(report.toString()).isEmpty();
		assertThat(strings(report.at("/memory/tools"))).containsExactlyInAnyOrder("create_entities", "search_nodes",
				"read_graph");
		assertThat(strings(report.at("/files/a/tools"))).contains("list_directory", "write_file", "read_text_file")
			.doesNotContain("move_file");
	}

	@ParameterizedTest
	@ValueSource(strings = { "v1", "v2" })
	void typeScriptClientsGrantedCallRunsAndTheUngrantedOneIsRefusedWithNothingWrittenToTheProcess(String sdk) {
		JsonNode steps = reports.get(sdk).at("/memory/steps");
		String plain = "plain-" + RUN + "-" + sdk;
		assertThat(steps.at("/created/text").asString()).as(steps.toString()).contains(plain);
		assertThat(steps.at("/ungranted/error/dataCode").asString()).as(steps.toString()).isEqualTo("tool_not_granted");
		// The entity the refused delete_entities named is still in the graph.
		assertThat(steps.at("/graph/text").asString()).contains(plain);
		JsonNode files = reports.get(sdk).at("/files/a/steps/ungranted");
		assertThat(files.at("/error/dataCode").asString()).as(files.toString()).isEqualTo("tool_not_granted");
		assertThat(rootA.resolve("from-a.txt")).exists();
		assertThat(rootA.resolve("moved.txt")).doesNotExist();
	}

	@ParameterizedTest
	@ValueSource(strings = { "v1", "v2" })
	void typeScriptClientsKeyedCallRetriedIsReplayedNotRunAgain(String sdk) {
		JsonNode steps = reports.get(sdk).at("/memory/steps");
		String keyed = "keyed-" + RUN + "-" + sdk;
		assertThat(steps.at("/keyed/text").asString()).as(steps.toString()).contains(keyed);
		// server-memory answers a second run of the same create_entities with no entity
		// (it exists): the retry's answer is the first run's, replayed.
		assertThat(steps.at("/keyedAgain/text").asString()).isEqualTo(steps.at("/keyed/text").asString());
		assertThat(steps.at("/unkeyedAgain/text").asString()).doesNotContain(keyed);
	}

	@ParameterizedTest
	@ValueSource(strings = { "v1", "v2" })
	void twoHumansSessionsRunInTwoProcessesEachWithItsOwnRoots(String sdk) {
		JsonNode files = reports.get(sdk).path("files");
		assertThat(files.at("/a/steps/allowed/text").asString()).as(files.toString()).contains(rootA.toString());
		assertThat(files.at("/a/steps/listed/text").asString()).contains("from-a.txt");
		assertThat(files.at("/b/steps/allowed/text").asString()).contains(rootB.toString())
			.doesNotContain(rootA.toString());
		JsonNode others = files.at("/b/steps/listedOthers");
		assertThat(others.path("isError").asBoolean() || others.has("error")).as(others.toString()).isTrue();
		assertThat(others.toString()).doesNotContain("from-a.txt");
		assertThat(files.at("/b/steps/listedOwn/isError").asBoolean(true)).isFalse();
	}

	/**
	 * The v2 client negotiating ({@code versionNegotiation: auto}) probes with
	 * {@code server/discover}, which a stdio server of the 2025 revisions does not know
	 * (an error from the shared process, 400 from a per-session server), and initializes.
	 */
	@Test
	void typeScriptV2ClientNegotiatingFallsBackToInitializeOnBothKindsOfStdioServer() {
		JsonNode negotiated = reports.get("v2").path("negotiated");
		assertThat(negotiated.size()).as(negotiated.toString()).isEqualTo(2);
		assertThat(negotiated.valueStream()).allSatisfy((server) -> {
			assertThat(server.path("protocolVersion").asString()).as(server.toString()).isEqualTo("2025-11-25");
			assertThat(server.path("called").asBoolean()).isTrue();
			assertThat(strings(server.path("exchanges"))).startsWith("server/discover").contains("initialize");
		});
	}

	// ---- Java SDK ------------------------------------------------------------------

	@Test
	void sessionsOfASharedServerAnd2026RequestsUseOneProcess() throws Exception {
		McpSyncClient first = initialized(SHARED, "sam");
		McpSyncClient second = initialized(SHARED, "sue");
		String entity = "stateless-" + RUN;

		HttpResponse<String> stateless = HTTP.send(HttpRequest.newBuilder(URI.create(gateway.url(SHARED)))
			.header("Authorization", "Bearer " + token("sam", "raw"))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", "tools/call")
			.header("Mcp-Name", "create_entities")
			.POST(HttpRequest.BodyPublishers.ofString("""
					{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_entities",
					"arguments":{"entities":[{"name":"%s","entityType":"test","observations":["o"]}]},
					"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
					"io.modelcontextprotocol/clientCapabilities":{}}}}""".formatted(entity)))
			.build(), HttpResponse.BodyHandlers.ofString());

		assertThat(stateless.statusCode()).as(stateless.body()).isEqualTo(200);
		assertThat(stateless.body()).contains("\"id\":7").contains(entity);
		assertThat(text(first.callTool(new CallToolRequest("search_nodes", Map.of("query", entity))))).contains(entity);
		assertThat(text(second.callTool(new CallToolRequest("search_nodes", Map.of("query", entity)))))
			.contains(entity);
		assertThat(auditLinesContaining("\"stdio_process\":\"started\",\"server\":\"test/stdio-shared\"")).hasSize(1);
		assertThat(metric("mcp_gateway_stdio_processes", "server=\"stdio-shared\"")).isEqualTo(1);
	}

	@Test
	void javaClientListsCallsAndIsRefusedAnUngrantedTool() {
		McpSyncClient client = initialized(MEMORY, "jo");

		assertThat(client.listTools().tools()).extracting(Tool::name)
			.containsExactlyInAnyOrder("create_entities", "search_nodes", "read_graph");
		CallToolResult created = client.callTool(new CallToolRequest("create_entities", Map.of("entities",
				List.of(Map.of("name", "java-" + RUN, "entityType", "test", "observations", List.of("o"))))));
		assertThat(text(created)).contains("java-" + RUN);
		assertThatException()
			.isThrownBy(() -> client
				.callTool(new CallToolRequest("delete_entities", Map.of("entityNames", List.of("java-" + RUN)))))
			.isInstanceOf(McpError.class)
			.withMessageContaining("No grant allows this principal to call this tool");
		assertThat(text(client.callTool(new CallToolRequest("search_nodes", Map.of("query", "java-" + RUN)))))
			.contains("java-" + RUN);
	}

	@Test
	void javaClientsKeyedCallRetriedIsReplayedNotRunAgain() {
		McpSyncClient client = initialized(MEMORY, "kay");
		String entity = "java-keyed-" + RUN;
		CallToolRequest keyed = CallToolRequest.builder()
			.name("create_entities")
			.arguments(Map.of("entities",
					List.of(Map.of("name", entity, "entityType", "test", "observations", List.of("o")))))
			.meta(Map.of(MetaKeyToolCalls.KEY, "key-" + entity))
			.build();

		CallToolResult first = client.callTool(keyed);
		CallToolResult again = client.callTool(keyed);

		assertThat(text(first)).contains(entity);
		assertThat(first.meta()).isNull();
		assertThat(text(again)).isEqualTo(text(first));
		assertThat(again.meta()).containsEntry("io.github.mcpgateway/idempotency", Map.of("replayed", true));
		// Run again without the key, server-memory finds the entity there: no new one.
		assertThat(text(client.callTool(new CallToolRequest("create_entities", keyed.arguments()))))
			.doesNotContain(entity);
	}

	@Test
	void aKilledProcessEndsItsSessionWith404AndANewSessionWorks() throws Exception {
		McpSyncClient client = initialized(MEMORY, "kim");
		long pid = lastStartedPid();
		assertThat(client.listTools().tools()).isNotEmpty();

		ProcessHandle.of(pid).orElseThrow().destroyForcibly();
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(auditLinesContaining("\"cause\":\"exited\"")).isNotEmpty());

		assertThatException().isThrownBy(client::listTools);
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(
					() -> assertThat(auditLinesContaining("\"session_event\":\"upstream_not_found\"")).isNotEmpty());
		McpSyncClient again = initialized(MEMORY, "kim");
		assertThat(again.listTools().tools()).isNotEmpty();
		assertThat(lastStartedPid()).isNotEqualTo(pid);
	}

	/**
	 * Over plain HTTP, since an SDK client initializes again on its own when its session
	 * ends, and would take the freed place first.
	 */
	@Test
	void thePerPrincipalCapRefusesASecondSessionAndTheIdleTimeoutEndsTheFirst() throws Exception {
		HttpResponse<String> first = post(CAPPED, null, INITIALIZE);
		String session = first.headers().firstValue("Mcp-Session-Id").orElseThrow();
		assertThat(post(CAPPED, session, INITIALIZED).statusCode()).isEqualTo(202);

		HttpResponse<String> second = post(CAPPED, null, INITIALIZE);
		assertThat(second.statusCode()).isEqualTo(429);
		assertThat(second.body()).contains("\"code\":\"stdio_processes_per_principal\"");
		assertThat(second.headers().firstValue("Retry-After")).hasValue("5");
		assertThat(metric("mcp_gateway_stdio_refusals_total", "server=\"stdio-capped\"",
				"reason=\"processes_per_principal\""))
			.isEqualTo(1);
		await().atMost(Duration.ofSeconds(15))
			.untilAsserted(() -> assertThat(
					metric("mcp_gateway_stdio_ends_total", "server=\"stdio-capped\"", "cause=\"idle\""))
				.isEqualTo(1));

		assertThat(post(CAPPED, session, LIST).statusCode()).isEqualTo(404);
		assertThat(post(CAPPED, null, INITIALIZE).statusCode()).isEqualTo(200);
		assertThat(metric("mcp_gateway_stdio_processes", "server=\"stdio-capped\"")).isEqualTo(1);
	}

	@Test
	void theChildSeesTheEnvironmentThePolicyNamesAndNothingOfTheGateways() {
		McpSyncClient client = initialized(EVERYTHING, "env");

		String environment = text(client.callTool(new CallToolRequest("get-env", Map.of())));

		assertThat(environment).contains("\"VISIBLE\": \"from the policy\"")
			.doesNotContain(MARKER)
			.doesNotContain("STDIO_IT_MARKER")
			.doesNotContain("\"PATH\"");
	}

	// ---- helpers --------------------------------------------------------------------

	private static final String INITIALIZE = """
			{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",
			"capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}""";

	private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

	private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";

	private static HttpResponse<String> post(String path, String session, String body) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.url(path)))
			.header("Authorization", "Bearer " + token("cap", "raw"))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("MCP-Protocol-Version", "2025-11-25")
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (session != null) {
			request.header("Mcp-Session-Id", session);
		}
		return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	private McpSyncClient initialized(String path, String human) {
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(gateway.url(""))
			.endpoint(path)
			.clientBuilder(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1))
			.requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token(human, "java")))
			.build();
		McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build();
		this.clients.add(client);
		client.initialize();
		return client;
	}

	private static long lastStartedPid() throws Exception {
		List<String> started = auditLinesContaining("\"stdio_process\":\"started\"");
		Matcher matcher = STARTED_PID.matcher(started.get(started.size() - 1));
		assertThat(matcher.find()).isTrue();
		return Long.parseLong(matcher.group(1));
	}

	private static List<String> auditLinesContaining(String text) throws Exception {
		return gateway.auditLines().stream().filter((line) -> line.contains(text)).toList();
	}

	/** The sum of the series of {@code name} whose labels contain every one given. */
	private static double metric(String name, String... labels) throws Exception {
		String body = HTTP
			.send(HttpRequest.newBuilder(URI.create(gateway.url("/actuator/prometheus"))).build(),
					HttpResponse.BodyHandlers.ofString())
			.body();
		return body.lines()
			.filter((line) -> line.startsWith(name + "{"))
			.filter((line) -> List.of(labels).stream().allMatch(line::contains))
			.mapToDouble((line) -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
			.sum();
	}

	private static String text(CallToolResult result) {
		return result.content()
			.stream()
			.filter(TextContent.class::isInstance)
			.map((content) -> ((TextContent) content).text())
			.reduce("", String::concat);
	}

	private static List<String> strings(JsonNode array) {
		return array.valueStream().map(JsonNode::asString).toList();
	}

}
