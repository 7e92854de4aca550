package io.github.mcpgateway.e2e;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import org.assertj.core.api.ThrowingConsumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.InstanceOfAssertFactories.INTEGER;
import static org.awaitility.Awaitility.await;

/**
 * The Java recipe for a {@code _meta} idempotency key ({@link MetaKeyToolCalls}) with the
 * official MCP Java SDK 2.1.0 client, against the packaged jar with its default
 * idempotency configuration (no {@code request-hash} or {@code event-streams} switch), in
 * front of {@code counting-server.mjs}: an SDK server that answers every
 * {@code tools/call} with an event stream and counts every tool run. What the application
 * gets is what {@code callTool} returns or throws; how often a tool ran is the server's
 * own count. Skipped where {@code node} or {@code npm} is missing.
 */
class JavaSdkMetaKeyIT {

	@RegisterExtension
	static final GatewayProcess gateway = new GatewayProcess("java-meta-key");

	private static final String REPLAY_MARK = "io.github.mcpgateway/idempotency";

	private static NodeInterop node;

	private static int countingPort;

	/** The body of every {@code tools/call} the test's clients sent, in order. */
	private final List<String> sentToolCalls = new CopyOnWriteArrayList<>();

	private final List<McpSyncClient> clients = new CopyOnWriteArrayList<>();

	private LossyNetwork network;

	@BeforeAll
	static void startTheGateway() throws Exception {
		node = NodeInterop.installed();
		int everything = node.startServerEverything("java-meta-key-everything").port();
		countingPort = node.startCountingServer("java-meta-key-counting").port();
		gateway.alsoInFrontOfCountingServer(countingPort);
		gateway.startInFrontOf(everything);
	}

	@AfterAll
	static void stopEverything() throws InterruptedException {
		gateway.stopAfter(node);
	}

	@AfterEach
	void closeClients() {
		this.clients.forEach(McpSyncClient::close);
	}

	@Test
	void callToolWhenTheFirstAnswerIsLostAfterTheRunThenTheRecipeGetsTheReplayOfTheOneRun() throws Exception {
		McpSyncClient client = client("alice");
		String key = UUID.randomUUID().toString();
		String item = "lost-" + key;
		this.network.loseNextAnswer();

		CallToolResult result = MetaKeyToolCalls.callTool(client, "count", Map.of("item", item), key, 3);

		assertThat(text(result)).isEqualTo("item " + item + " run 1");
		assertThat(replayMark(result)).isEqualTo(Map.of("replayed", true));
		assertThat(runs("count", item)).as("tool runs").isEqualTo(1);
		// Calls with the key, each with its own JSON-RPC id; the SDK took the replay as
		// the
		// answer to the last (an answer with another id would have timed out). A call
		// between them may have been told in flight, while the gateway still records.
		assertThat(sentWithKey(key)).hasSizeGreaterThanOrEqualTo(2)
			.extracting(JavaSdkMetaKeyIT::id)
			.doesNotHaveDuplicates();
	}

	@Test
	void callToolWhenTheSameKeyComesWithOtherArgumentsThenTheApplicationGetsKeyConflict() throws Exception {
		McpSyncClient client = client("alice");
		String key = UUID.randomUUID().toString();
		CallToolResult first = MetaKeyToolCalls.callTool(client, "count", Map.of("item", "first-" + key), key, 3);
		assertThat(replayMark(first)).as("a first run is not marked").isNull();

		assertThatExceptionOfType(McpError.class)
			.isThrownBy(() -> MetaKeyToolCalls.callTool(client, "count", Map.of("item", "other-" + key), key, 3))
			.satisfies(refusal("idempotency_key_conflict", 409));
		assertThat(runs("count", "other-" + key)).isZero();
		assertThat(sentWithKey(key)).as("the recipe does not call again").hasSize(2);
	}

	@Test
	void callToolWhileTheFirstCallRunsThenInFlightWithRetryAfterAndTheRecipeWaitsForTheReplay() throws Exception {
		McpSyncClient client = client("alice");
		String key = UUID.randomUUID().toString();
		String item = "slow-" + key;
		CallToolRequest call = keyed("slow", item, key);
		CompletableFuture<CallToolResult> first = CompletableFuture.supplyAsync(() -> client.callTool(call));
		await().atMost(Duration.ofSeconds(10)).until(() -> runs("slow", item) == 1);

		assertThatExceptionOfType(McpError.class).isThrownBy(() -> client.callTool(call))
			.satisfies(refusal("idempotency_in_flight", 409))
			.satisfies((error) -> assertThat(data(error).get("retryAfter")).asInstanceOf(INTEGER)
				.isGreaterThanOrEqualTo(1));
		CallToolResult again = MetaKeyToolCalls.callTool(client, "slow", Map.of("item", item), key, 5);

		assertThat(text(first.get())).isEqualTo("item " + item + " run 1");
		assertThat(replayMark(first.get())).isNull();
		assertThat(text(again)).isEqualTo("item " + item + " run 1");
		assertThat(replayMark(again)).isEqualTo(Map.of("replayed", true));
		assertThat(runs("slow", item)).as("tool runs").isEqualTo(1);
	}

	@Test
	void callToolWhenTheUpstreamFailsAfterTheRunThenTheRecipesCallAgainGetsOutcomeUnknown() throws Exception {
		McpSyncClient client = client("alice");
		String key = UUID.randomUUID().toString();
		String item = "crash-" + key;

		assertThatExceptionOfType(McpError.class)
			.isThrownBy(() -> MetaKeyToolCalls.callTool(client, "crash", Map.of("item", item), key, 3))
			.satisfies(refusal("idempotency_outcome_unknown", 409));
		assertThat(runs("crash", item)).as("tool runs").isEqualTo(1);
		// The 5xx reached the SDK as a transport error, so the recipe called again.
		assertThat(sentWithKey(key)).hasSizeGreaterThanOrEqualTo(2);
	}

	@Test
	void callToolOverTheQuotaThenRateLimitedWithRetryAfterWithAndWithoutAKey() throws Exception {
		for (boolean withKey : new boolean[] { true, false }) {
			McpSyncClient client = client("quota-" + withKey);
			String item = "limited-" + withKey + "-" + UUID.randomUUID();
			client.callTool(limited(item + "-1", withKey));
			client.callTool(limited(item + "-2", withKey));

			assertThatExceptionOfType(McpError.class).as("with key: %s", withKey)
				.isThrownBy(() -> client.callTool(limited(item + "-3", withKey)))
				.satisfies((error) -> {
					assertThat(error.getJsonRpcError().code()).isEqualTo(-32011);
					assertThat(data(error)).containsEntry("code", "rate_limited")
						.containsEntry("status", 429)
						.containsEntry("limit", GatewayProcess.COUNTING_LIMIT);
					assertThat(data(error).get("retryAfter")).asInstanceOf(INTEGER).isBetween(1, 60);
				});
			assertThat(runs("limited", item + "-2")).isEqualTo(1);
			assertThat(runs("limited", item + "-3")).as("the refused call did not run").isZero();
		}
	}

	private static CallToolRequest limited(String item, boolean withKey) {
		return withKey ? keyed("limited", item, UUID.randomUUID().toString())
				: CallToolRequest.builder().name("limited").arguments(Map.of("item", item)).build();
	}

	/** A call as {@link MetaKeyToolCalls} makes it. */
	private static CallToolRequest keyed(String tool, String item, String key) {
		return CallToolRequest.builder()
			.name(tool)
			.arguments(Map.of("item", item))
			.meta(Map.of(MetaKeyToolCalls.KEY, key))
			.build();
	}

	/** An idempotency refusal as the application reads it: {@code error.data}. */
	private static ThrowingConsumer<McpError> refusal(String code, int status) {
		return (error) -> {
			assertThat(error.getJsonRpcError().code()).isEqualTo(-32008);
			assertThat(MetaKeyToolCalls.code(error)).isEqualTo(code);
			assertThat(data(error)).containsEntry("status", status);
		};
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> data(McpError error) {
		assertThat(error.getJsonRpcError().data()).isInstanceOf(Map.class);
		return (Map<String, Object>) error.getJsonRpcError().data();
	}

	/**
	 * A client of {@link GatewayProcess#COUNTING} for {@code principal} (the quota counts
	 * per principal) over a {@link LossyNetwork} whose keyed requests carry a
	 * {@code _meta} key.
	 */
	private McpSyncClient client(String principal) {
		String url = gateway.url(GatewayProcess.COUNTING);
		String token = TestJwts.jwt().human(principal).team("blue").audience(url).sign();
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder(url.substring(0, url.indexOf("/mcp/")))
			.endpoint(GatewayProcess.COUNTING)
			.clientBuilder(ForwardingHttpClient.builder(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1),
					(http) -> this.network = LossyNetwork.carryingInBody(http, MetaKeyToolCalls.KEY)))
			.requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
			.addHttpRequestCustomizer((request, method, uri, body, context) -> {
				if ("POST".equals(method) && IdempotentToolCalls.isToolCall(body)) {
					this.sentToolCalls.add(body);
				}
			})
			.build();
		McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build();
		this.clients.add(client);
		client.initialize();
		return client;
	}

	private List<String> sentWithKey(String key) {
		return this.sentToolCalls.stream().filter((body) -> body.contains(key)).toList();
	}

	private static Object id(String body) {
		try {
			return ((McpSchema.JSONRPCRequest) McpSchema.deserializeJsonRpcMessage(McpJsonDefaults.getMapper(), body))
				.id();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** The gateway's mark on a replayed result, or {@code null}. */
	private static Object replayMark(CallToolResult result) {
		return (result.meta() != null) ? result.meta().get(REPLAY_MARK) : null;
	}

	private static String text(CallToolResult result) {
		return ((TextContent) result.content().get(0)).text();
	}

	/** How often {@code tool} ran for {@code item}, by the counting server's count. */
	private static int runs(String tool, String item) throws Exception {
		return NodeInterop.countingServerRuns(countingPort).path(tool).path(item).asInt(0);
	}

}
