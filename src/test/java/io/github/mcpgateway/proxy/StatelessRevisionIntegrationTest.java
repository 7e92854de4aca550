package io.github.mcpgateway.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.test.context.TestPropertySource;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.RawHttp;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.StatelessUpstream;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * MCP 2026-07-28 through the gateway, against an upstream that speaks it
 * ({@link StatelessUpstream}): routing headers, retries with new ids, multi round-trip
 * requests, private caching scope, listen streams, cancellation by disconnect, sessions;
 * and the 2025 rules kept where the revisions differ. The idle timeout is long here, so
 * that only a client's departure can end a silent upstream call early, and so is the
 * first-byte timeout, so that an upstream may prepare its reply in silence.
 */
@TestPropertySource(properties = { "gateway.proxy.idle-timeout=30s", "gateway.proxy.first-byte-timeout=30s" })
class StatelessRevisionIntegrationTest extends GatewayIntegrationTest {

	private static final StatelessUpstream stateless = StatelessUpstream.start();

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String PATH = "/mcp/test/stateless";

	private static final String WEATHER = "天気";

	private final String token = validToken();

	@AfterAll
	static void stopUpstream() throws IOException {
		stateless.close();
	}

	@BeforeEach
	void serveTheStatelessUpstream() {
		stateless.reset();
		policy.write(policy.standard() + """
				  - namespace: test
				    name: stateless
				    uid: uid-stateless
				    upstream: %s
				    path: %s
				    grants:
				      - principal: { team: blue }
				        tools: [echo, ask, slow, silent, "%s"]
				      - principal: { human: carol }
				        tools: ["*"]
				""".formatted(stateless.url(), PATH, WEATHER));
		this.policyReloader.reloadNow();
	}

	@Test
	void nonAsciiToolNameSentInBase64PassesWhenItMatchesAndIsRefusedWhenNot() {
		String encoded = "=?base64?" + Base64.getEncoder().encodeToString(WEATHER.getBytes(StandardCharsets.UTF_8))
				+ "?=";
		String other = "=?base64?" + Base64.getEncoder().encodeToString("天気予報".getBytes(StandardCharsets.UTF_8)) + "?=";

		HttpResponse<String> matching = post(PATH, this.token, call(1, WEATHER, "{}"), headers("tools/call", encoded));
		HttpResponse<String> differing = post(PATH, this.token, call(2, WEATHER, "{}"), headers("tools/call", other));
		HttpResponse<String> broken = post(PATH, this.token, call(3, WEATHER, "{}"),
				headers("tools/call", "=?base64?***?="));

		assertThat(matching.statusCode()).isEqualTo(200);
		assertThat(body(matching).at("/result/content/0/text").asString()).isEqualTo("done:" + WEATHER);
		for (HttpResponse<String> refused : List.of(differing, broken)) {
			assertThat(refused.statusCode()).isEqualTo(400);
			assertThat(body(refused).at("/error/code").asInt()).isEqualTo(-32020);
			assertThat(body(refused).at("/error/data/code").asString()).isEqualTo("header_mismatch");
		}
		assertThat(body(differing).at("/id").asInt()).isEqualTo(2);
		assertThat(stateless.runs(WEATHER)).isEqualTo(1);
	}

	@Test
	void paramHeadersAreCheckedAgainstTheAnnotationsTheListShowed() {
		post(PATH, this.token, request(1, "tools/list", "{}"), headers("tools/list", null));
		String region = "{\"region\":\"eu-west\"}";
		String encoded = "=?base64?" + Base64.getEncoder().encodeToString("eu-west".getBytes(StandardCharsets.UTF_8))
				+ "?=";

		HttpResponse<String> matching = post(PATH, this.token, call(2, "echo", region),
				withParam(headers("tools/call", "echo"), "eu-west"));
		HttpResponse<String> encodedMatching = post(PATH, this.token, call(3, "echo", region),
				withParam(headers("tools/call", "echo"), encoded));
		HttpResponse<String> differing = post(PATH, this.token, call(4, "echo", region),
				withParam(headers("tools/call", "echo"), "us-east"));
		HttpResponse<String> missing = post(PATH, this.token, call(5, "echo", region), headers("tools/call", "echo"));
		HttpResponse<String> legacy = post(PATH, this.token,
				"{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
						+ "\"arguments\":" + region + "}}",
				"MCP-Protocol-Version", "2025-11-25");

		assertThat(matching.statusCode()).isEqualTo(200);
		assertThat(encodedMatching.statusCode()).isEqualTo(200);
		for (HttpResponse<String> refused : List.of(differing, missing)) {
			assertThat(refused.statusCode()).isEqualTo(400);
			assertThat(body(refused).at("/error/code").asInt()).isEqualTo(-32020);
		}
		assertThat(legacy.statusCode()).as("2025 requests mirror nothing").isEqualTo(200);
		assertThat(stateless.runs("echo")).isEqualTo(3);
	}

	private static String[] withParam(String[] headers, String region) {
		String[] with = java.util.Arrays.copyOf(headers, headers.length + 2);
		with[headers.length] = "Mcp-Param-Region";
		with[headers.length + 1] = region;
		return with;
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|',
			value = { "no Mcp-Method|MCP-Protocol-Version,2026-07-28,Mcp-Name,echo",
					"no Mcp-Name on tools/call|MCP-Protocol-Version,2026-07-28,Mcp-Method,tools/call",
					"no MCP-Protocol-Version|Mcp-Method,tools/call,Mcp-Name,echo",
					"version disagrees with _meta|MCP-Protocol-Version,2025-11-25,Mcp-Method,tools/call,Mcp-Name,echo",
					"method disagrees|MCP-Protocol-Version,2026-07-28,Mcp-Method,tools/list,Mcp-Name,echo" })
	void missingOrDisagreeingRoutingHeaderIsRefusedWithTheRevisionsError(String what, String headers) {
		HttpResponse<String> refused = post(PATH, this.token, call(5, "echo", "{}"), headers.split(","));

		assertThat(refused.statusCode()).as(what).isEqualTo(400);
		assertThat(body(refused).at("/error/code").asInt()).as(what).isEqualTo(-32020);
		assertThat(body(refused).at("/error/data/code").asString()).isEqualTo("header_mismatch");
		assertThat(stateless.received()).isEmpty();
	}

	@Test
	void keyedCallRetriedWithANewIdAndProgressTokenIsReplayedWithTheRetrysIdAndRunsOnce() {
		String key = UUID.randomUUID().toString();

		HttpResponse<String> first = post(PATH, this.token, call(7, "echo", "{\"text\":\"x\"}", "tok-1"),
				keyed(headers("tools/call", "echo"), key));
		HttpResponse<String> retry = post(PATH, this.token, call(8, "echo", "{\"text\":\"x\"}", "tok-2"),
				keyed(headers("tools/call", "echo"), key));
		HttpResponse<String> other = post(PATH, this.token, call(9, "echo", "{\"text\":\"y\"}", "tok-3"),
				keyed(headers("tools/call", "echo"), key));

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(body(retry).at("/id").asInt()).isEqualTo(8);
		assertThat(body(retry).at("/result").toString()).isEqualTo(body(first).at("/result").toString());
		assertThat(stateless.runs("echo")).isEqualTo(1);
		assertThat(other.statusCode()).isEqualTo(409);
		assertThat(body(other).at("/error/data/code").asString()).isEqualTo("idempotency_key_conflict");
	}

	@Test
	void keyedCallAnsweredForInputRunsItsFollowUpAndALaterRetryReplaysTheFinalResult() {
		String key = UUID.randomUUID().toString();
		String[] headers = keyed(headers("tools/call", "ask"), key);

		HttpResponse<String> interim = post(PATH, this.token, call(11, "ask", "{}"), headers);
		String followUp = followUp(12);
		HttpResponse<String> answered = post(PATH, this.token, followUp, headers);
		HttpResponse<String> retry = post(PATH, this.token, followUp(13), headers);

		assertThat(body(interim).at("/result/resultType").asString()).isEqualTo("input_required");
		assertThat(answered.headers().firstValue("Idempotency-Replayed")).isEmpty();
		assertThat(body(answered).at("/result/content/0/text").asString()).isEqualTo("answered:Ada");
		assertThat(stateless.received().stream().filter((r) -> r.message().path("params").has("inputResponses")))
			.hasSize(1);
		assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(body(retry).at("/result/content/0/text").asString()).isEqualTo("answered:Ada");
		assertThat(body(retry).at("/id").asInt()).isEqualTo(13);
		assertThat(stateless.runs("ask")).isEqualTo(1);
	}

	@Test
	void filteredToolListMarkedPublicLeavesTheGatewayPrivate() {
		for (String caller : List.of(this.token, TestJwts.jwt().human("carol").team("red").sign())) {
			HttpResponse<String> listed = post(PATH, caller, request(3, "tools/list", "{}"),
					headers("tools/list", null));

			assertThat(listed.statusCode()).isEqualTo(200);
			assertThat(body(listed).at("/result/cacheScope").asString()).isEqualTo("private");
		}
		HttpResponse<String> alices = post(PATH, this.token, request(4, "tools/list", "{}"),
				headers("tools/list", null));
		assertThat(body(alices).at("/result/tools").values()).extracting((tool) -> tool.get("name").asString())
			.doesNotContain("admin_reset")
			.contains("echo");
	}

	@Test
	void callWhoseClientLeavesIsEndedUpstreamAtOnce() throws Exception {
		Instant left = leaveAfterOneSecond(call(21, "slow", "{\"ms\":9000}"), headers("tools/call", "slow"));

		await().atMost(Duration.ofSeconds(5)).until(() -> !stateless.closed().isEmpty());
		StatelessUpstream.Closed closed = stateless.closed().get(0);
		System.out.println("2026 call: upstream saw the close " + Duration.between(left, closed.closedAt()).toMillis()
				+ " ms after the client left");
		assertThat(Duration.between(left, closed.closedAt())).isLessThan(Duration.ofSeconds(3));
		assertThat(stateless.runs("slow")).isZero();
	}

	@Test
	void keyedCallWhoseClientLeavesSettlesAsCancelledAndIsNeverRunAgain() throws Exception {
		String key = UUID.randomUUID().toString();
		leaveAfterOneSecond(call(23, "slow", "{\"ms\":9000}"), keyed(headers("tools/call", "slow"), key));
		await().atMost(Duration.ofSeconds(5)).until(() -> !stateless.closed().isEmpty());

		HttpResponse<String> retry = await().atMost(Duration.ofSeconds(5))
			.until(() -> post(PATH, this.token, call(24, "slow", "{\"ms\":9000}"),
					keyed(headers("tools/call", "slow"), key)),
					(response) -> response.statusCode() != 409
							|| !body(response).at("/error/data/code").asString().equals("idempotency_in_flight"));

		assertThat(retry.statusCode()).isEqualTo(409);
		assertThat(body(retry).at("/error/data/code").asString()).isEqualTo("idempotency_outcome_unknown");
		assertThat(stateless.received().stream().filter((r) -> r.method().equals("tools/call"))).hasSize(1);
	}

	@Test
	void call2025WhoseClientLeavesRunsToItsEnd() throws Exception {
		leaveAfterOneSecond("{\"jsonrpc\":\"2.0\",\"id\":22,\"method\":\"tools/call\",\"params\":"
				+ "{\"name\":\"slow\",\"arguments\":{\"ms\":2500}}}", "MCP-Protocol-Version", "2025-11-25");

		await().atMost(Duration.ofSeconds(6)).until(() -> stateless.runs("slow") == 1);
		assertThat(stateless.closed()).isEmpty();
	}

	/**
	 * Issue 43: an upstream that prepares a JSON reply in silence. After
	 * {@code silent-reply-stream-after} (1s) the gateway answers as an event stream whose
	 * keep-alive comments find the client gone.
	 */
	@Test
	void silentJsonCallWhoseClientLeavesIsEndedUpstreamWithinThreeSeconds() throws Exception {
		Instant left = leaveAfterOneSecond(call(31, "silent", "{\"ms\":10000}"), headers("tools/call", "silent"));

		await().atMost(Duration.ofSeconds(6)).until(() -> !stateless.closed().isEmpty());
		StatelessUpstream.Closed closed = stateless.closed().get(0);
		System.out.println("2026 silent JSON call: upstream saw the close "
				+ Duration.between(left, closed.closedAt()).toMillis() + " ms after the client left");
		assertThat(closed.what()).isEqualTo("silent");
		assertThat(Duration.between(left, closed.closedAt())).isLessThan(Duration.ofSeconds(3));
		assertThat(stateless.runs("silent")).isZero();
	}

	@Test
	void silent2025JsonCallWhoseClientLeavesRunsToItsEnd() throws Exception {
		leaveAfterOneSecond("{\"jsonrpc\":\"2.0\",\"id\":32,\"method\":\"tools/call\",\"params\":"
				+ "{\"name\":\"silent\",\"arguments\":{\"ms\":2500}}}", "MCP-Protocol-Version", "2025-11-25");

		await().atMost(Duration.ofSeconds(6)).until(() -> stateless.runs("silent") == 1);
		assertThat(stateless.closed()).isEmpty();
	}

	@Test
	void replyWithinTheDelayKeepsItsJsonFormAndItsStatus() {
		HttpResponse<String> answered = post(PATH, this.token, call(33, "silent", "{\"ms\":100}"),
				headers("tools/call", "silent"));
		HttpResponse<String> refused = post(PATH, this.token, call(34, "silent", "{\"ms\":100,\"status\":400}"),
				headers("tools/call", "silent"));

		assertThat(answered.statusCode()).isEqualTo(200);
		assertThat(answered.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
		assertThat(body(answered).at("/result/content/0/text").asString()).isEqualTo("done:\nsilent");
		assertThat(refused.statusCode()).isEqualTo(400);
		assertThat(refused.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
		assertThat(body(refused).at("/error/code").asInt()).isEqualTo(-32602);
	}

	@Test
	void silentReplyArrivesAsTheOneEventOfAStreamKeptAlive() {
		HttpResponse<String> reply = post(PATH, this.token, call(35, "silent", "{\"ms\":2500}"),
				headers("tools/call", "silent"));

		assertThat(reply.statusCode()).isEqualTo(200);
		assertThat(reply.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/event-stream");
		assertThat(reply.body()).startsWith(":\n\n");
		List<JsonNode> events = events(reply.body());
		assertThat(events).hasSize(1);
		assertThat(events.get(0).at("/id").asInt()).isEqualTo(35);
		assertThat(events.get(0).at("/result/content/0/text").asString()).isEqualTo("done:\nsilent");
		assertThat(stateless.runs("silent")).isEqualTo(1);
	}

	@ParameterizedTest(name = "upstream {0} with {1}")
	@CsvSource({ "500, text, -32005, upstream_http_error", "400, json-rpc, -32602, ",
			"502, drop, -32005, upstream_failed" })
	void failureAfterALongSilenceArrivesAsAJsonRpcErrorEventWithTheRequestsId(int status, String kind, int rpcCode,
			String dataCode) {
		CircuitBreaker circuit = this.upstreamResilience.circuitBreakers().circuitBreaker("test/stateless");
		long failuresBefore = circuit.getMetrics().getNumberOfFailedCalls();

		HttpResponse<String> reply = post(PATH, this.token,
				call(36, "silent", "{\"ms\":2500,\"status\":" + status + ",\"body\":\"" + kind + "\"}"),
				headers("tools/call", "silent"));

		assertThat(reply.statusCode()).isEqualTo(200);
		assertThat(reply.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/event-stream");
		List<JsonNode> events = events(reply.body());
		assertThat(events).hasSize(1);
		assertThat(events.get(0).at("/id").asInt()).isEqualTo(36);
		assertThat(events.get(0).at("/error/code").asInt()).isEqualTo(rpcCode);
		if (dataCode != null) {
			assertThat(events.get(0).at("/error/data/code").asString()).isEqualTo(dataCode);
		}
		if ("text".equals(kind)) {
			assertThat(events.get(0).at("/error/data/upstreamStatus").asString()).isEqualTo(Integer.toString(status));
		}
		assertThat(circuit.getMetrics().getNumberOfFailedCalls() - failuresBefore)
			.as("the circuit breaker counts what the upstream answered, not the stream's 200")
			.isEqualTo((status >= 500) ? 1 : 0);
	}

	@Test
	void keyedSilentCallIsStoredAsItsJsonReplyAndReplayedAsJson() {
		String key = UUID.randomUUID().toString();
		HttpResponse<String> first = post(PATH, this.token, call(37, "silent", "{\"ms\":2500}"),
				keyed(headers("tools/call", "silent"), key));
		HttpResponse<String> retry = post(PATH, this.token, call(38, "silent", "{\"ms\":2500}"),
				keyed(headers("tools/call", "silent"), key));

		assertThat(events(first.body())).singleElement()
			.satisfies((event) -> assertThat(event.at("/result/content/0/text").asString()).isEqualTo("done:\nsilent"));
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(retry.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
		assertThat(body(retry).at("/id").asInt()).isEqualTo(38);
		assertThat(body(retry).at("/result/content/0/text").asString()).isEqualTo("done:\nsilent");
		assertThat(stateless.runs("silent")).isEqualTo(1);
	}

	@Test
	void keyedSilentCallWhoseClientLeavesSettlesAsOutcomeUnknownAndIsNeverRunAgain() throws Exception {
		String key = UUID.randomUUID().toString();
		leaveAfterOneSecond(call(39, "silent", "{\"ms\":9000}"), keyed(headers("tools/call", "silent"), key));
		await().atMost(Duration.ofSeconds(6)).until(() -> !stateless.closed().isEmpty());

		HttpResponse<String> retry = await().atMost(Duration.ofSeconds(5))
			.until(() -> post(PATH, this.token, call(40, "silent", "{\"ms\":9000}"),
					keyed(headers("tools/call", "silent"), key)),
					(response) -> response.statusCode() != 409
							|| !body(response).at("/error/data/code").asString().equals("idempotency_in_flight"));

		assertThat(retry.statusCode()).isEqualTo(409);
		assertThat(body(retry).at("/error/data/code").asString()).isEqualTo("idempotency_outcome_unknown");
		assertThat(stateless.runs("silent")).isZero();
	}

	@Test
	void listenStreamStaysOpenAMinuteEndsWhenItsClientLeavesAndOpensNoCircuit() throws Exception {
		CircuitBreaker circuit = this.upstreamResilience.circuitBreakers().circuitBreaker("test/stateless");
		long failuresBefore = circuit.getMetrics().getNumberOfFailedCalls();
		String listen = request(31, "subscriptions/listen",
				"{\"_meta\":" + meta(null) + ",\"notifications\":{\"toolsListChanged\":true}}");
		byte[] raw = RawHttp.post(PATH, listen, withAuth(headers("subscriptions/listen", null)));
		Instant left;
		try (Socket socket = RawHttp.open(this.port, raw)) {
			socket.setSoTimeout(5000);
			InputStream in = socket.getInputStream();
			Instant until = Instant.now().plus(Duration.ofSeconds(60));
			long read = 0;
			byte[] buffer = new byte[1024];
			while (Instant.now().isBefore(until)) {
				int n = in.read(buffer);
				assertThat(n).as("the stream ended after %s bytes", read).isPositive();
				read += n;
			}
			assertThat(read).isGreaterThan(100);
			left = Instant.now();
		}

		await().atMost(Duration.ofSeconds(5)).until(() -> !stateless.closed().isEmpty());
		assertThat(Duration.between(left, stateless.closed().get(0).closedAt())).isLessThan(Duration.ofSeconds(3));
		assertThat(circuit.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
		assertThat(circuit.getMetrics().getNumberOfFailedCalls()).isEqualTo(failuresBefore);
	}

	@Test
	void staleSessionIdOfAStatelessRequestIsIgnoredAndNotForwarded() {
		String[] headers = headers("tools/call", "echo");
		String[] withSession = java.util.stream.Stream
			.concat(java.util.Arrays.stream(headers), java.util.stream.Stream.of("Mcp-Session-Id", "stale-session"))
			.toArray(String[]::new);

		HttpResponse<String> response = post(PATH, this.token, call(41, "echo", "{}"), withSession);

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(stateless.received()).singleElement()
			.satisfies((received) -> assertThat(received.hasHeader("Mcp-Session-Id")).isFalse());
	}

	@Test
	void revokedPrincipalIsRefusedOnStatelessRequestsToo() {
		revocations.write("{\"sessions\":[],\"principals\":[{\"human\":\"alice\"}]}");
		this.revocationSync.syncNow();

		HttpResponse<String> refused = post(PATH, this.token, call(42, "echo", "{}"), headers("tools/call", "echo"));

		assertThat(refused.statusCode()).isEqualTo(200);
		assertThat(body(refused).at("/error/data/code").asString()).isEqualTo("principal_revoked");
		assertThat(stateless.received()).isEmpty();
	}

	@Test
	void resumedStreamCarryingAToolListResponseIsFiltered() {
		upstream.reply(Replies.sse(List.of("id: stream-1:5\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,"
				+ "\"result\":{\"tools\":[{\"name\":\"echo\"},{\"name\":\"admin_reset\"}]}}\n\n"), 0));

		HttpResponse<String> resumed = send(java.net.http.HttpRequest.newBuilder(uri("/mcp/test/echo"))
			.timeout(Duration.ofSeconds(10))
			.header("Authorization", "Bearer " + this.token)
			.header("Accept", "text/event-stream")
			.header("Last-Event-ID", "stream-1:4")
			.header("MCP-Protocol-Version", "2025-11-25")
			.GET()
			.build());

		assertThat(resumed.statusCode()).isEqualTo(200);
		assertThat(resumed.body()).contains("\"echo\"").doesNotContain("admin_reset");
	}

	/** Sends a request on a raw connection and closes it after one second. */
	private Instant leaveAfterOneSecond(String body, String... headers) throws Exception {
		try (Socket socket = RawHttp.open(this.port, RawHttp.post(PATH, body, withAuth(headers)))) {
			Thread.sleep(1000);
		}
		return Instant.now();
	}

	private String[] withAuth(String... headers) {
		List<String> lines = new ArrayList<>();
		lines.add("Authorization: Bearer " + this.token);
		lines.add("Accept: application/json, text/event-stream");
		for (int i = 0; i < headers.length; i += 2) {
			lines.add(headers[i] + ": " + headers[i + 1]);
		}
		return lines.toArray(String[]::new);
	}

	private static String[] headers(String method, String name) {
		List<String> headers = new ArrayList<>(List.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method));
		if (name != null) {
			headers.addAll(List.of("Mcp-Name", name));
		}
		return headers.toArray(String[]::new);
	}

	private static String[] keyed(String[] headers, String key) {
		String[] keyed = java.util.Arrays.copyOf(headers, headers.length + 2);
		keyed[headers.length] = "Idempotency-Key";
		keyed[headers.length + 1] = key;
		return keyed;
	}

	private static String followUp(int id) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"ask\","
				+ "\"arguments\":{},\"_meta\":" + meta("p-" + id) + ",\"requestState\":\"state-1\","
				+ "\"inputResponses\":{\"name\":{\"action\":\"accept\",\"content\":{\"name\":\"Ada\"}}}}}";
	}

	private static String call(int id, String tool, String arguments) {
		return call(id, tool, arguments, null);
	}

	private static String call(int id, String tool, String arguments, String progressToken) {
		return request(id, "tools/call",
				"{\"name\":\"" + tool + "\",\"arguments\":" + arguments + ",\"_meta\":" + meta(progressToken) + "}");
	}

	private static String request(int id, String method, String params) {
		String withMeta = params.equals("{}") ? "{\"_meta\":" + meta(null) + "}" : params;
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + withMeta + "}";
	}

	private static String meta(String progressToken) {
		return "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
				+ "\"io.modelcontextprotocol/clientCapabilities\":{}"
				+ ((progressToken != null) ? ",\"progressToken\":\"" + progressToken + "\"" : "") + "}";
	}

	/** The JSON-RPC messages of an event stream's events, in order. */
	private static List<JsonNode> events(String stream) {
		List<JsonNode> messages = new ArrayList<>();
		for (String event : stream.split("\n\n")) {
			StringBuilder data = new StringBuilder();
			event.lines().filter((line) -> line.startsWith("data:")).forEach((line) -> data.append(line.substring(5)));
			if (!data.isEmpty()) {
				messages.add(json.readTree(data.toString()));
			}
		}
		return messages;
	}

	private static JsonNode body(HttpResponse<String> response) {
		return json.readTree(response.body());
	}

}
