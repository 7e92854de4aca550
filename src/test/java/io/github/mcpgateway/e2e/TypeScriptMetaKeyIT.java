package io.github.mcpgateway.e2e;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Idempotency-Key in {@code params._meta} through the official TypeScript SDK, v1
 * 1.32.2 and v2 ({@code @modelcontextprotocol/client} 2.4.0), as an application uses it:
 * the recipe {@code src/test/node/meta-key-recipe.mjs} (docs/idempotency.md) or a plain
 * {@code callTool}, driven by {@code meta-key-client.mjs}. The packaged gateway runs with
 * its default idempotency configuration (no {@code request-hash}, no
 * {@code event-streams} switch) in front of {@code counting-server.mjs}, an SDK server
 * that answers with event streams and counts every tool run; the tests read those counts
 * from the server itself. The script runs once per SDK; each test checks one behaviour in
 * both reports. Skipped where {@code node} or {@code npm} is missing.
 */
class TypeScriptMetaKeyIT {

	private static final String V1 = "v1";

	private static final String V2 = "v2";

	@RegisterExtension
	static final GatewayProcess gateway = new GatewayProcess("typescript-meta-key");

	private static NodeInterop node;

	private static int countingPort;

	private static Map<String, JsonNode> reports;

	@BeforeAll
	static void runTheClientThroughBothSdks() throws Exception {
		node = NodeInterop.installed();
		countingPort = node.startCountingServer("meta-key-counting").port();
		gateway.alsoInFrontOfCountingServer(countingPort);
		// No test here uses the server-everything paths: their upstream is a port nothing
		// listens on.
		gateway.startInFrontOf(NodeInterop.freePort());
		reports = Map.of(V1, client(V1), V2, client(V2));
	}

	private static JsonNode client(String sdk) throws Exception {
		// Each SDK's run its own principal: its own bucket of the quota on `limited`.
		String token = TestJwts.jwt()
			.human("alice")
			.team("blue")
			.agent("meta-key-" + sdk)
			.audience(gateway.url(GatewayProcess.COUNTING))
			.sign();
		NodeInterop.Finished run = node.run("meta-key-client-" + sdk,
				Map.of("SDK", sdk, "MCP_URL", gateway.url(GatewayProcess.COUNTING), "MCP_TOKEN", token, "COUNTS_URL",
						"http://127.0.0.1:" + countingPort + "/counts"),
				Duration.ofSeconds(100), "meta-key-client.mjs");
		return run.report("Idempotency-Key in _meta through the TypeScript SDK " + sdk);
	}

	@AfterAll
	static void stopEverything() throws InterruptedException {
		gateway.stopAfter(node);
	}

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void aLostReplyIsRecoveredByCallingAgainWithTheSameKeyAndTheToolRunsOnce(String sdk) throws Exception {
		JsonNode lost = step(sdk, "lost");
		assertThat(lost.path("text").asString()).as(lost.toString()).isEqualTo("item " + sdk + "-lost run 1");
		assertThat(lost.path("replayMark").path("replayed").asBoolean(false)).as(lost.toString()).isTrue();
		List<JsonNode> exchanges = exchanges(lost);
		JsonNode first = exchanges.get(0);
		// The first reply was complete (the tool ran and answered) and then lost.
		assertThat(first.get("lost").asBoolean()).as(lost.toString()).isTrue();
		assertThat(first.get("status").asInt()).isEqualTo(200);
		assertThat(first.get("contentType").asString()).as("the upstream answers with an event stream")
			.contains("text/event-stream");
		assertThat(ids(first.get("replyIds"))).containsExactly(first.get("id").asString());
		// The recipe's retries: in flight while the gateway finishes the stream, then the
		// replay, which carries the retry's JSON-RPC id, not the first's.
		JsonNode replay = exchanges.get(exchanges.size() - 1);
		assertThat(exchanges.subList(1, exchanges.size() - 1)).as(lost.toString())
			.allSatisfy((e) -> assertThat(e.get("dataCode").asString()).isEqualTo("idempotency_in_flight"));
		assertThat(exchanges).allSatisfy((e) -> assertThat(e.get("sameKey").asBoolean()).isTrue());
		assertThat(replay.get("status").asInt()).isEqualTo(200);
		assertThat(replay.get("replayedHeader").asString()).isEqualTo("true");
		assertThat(replay.get("id").asString()).isNotEqualTo(first.get("id").asString());
		assertThat(ids(replay.get("replyIds"))).containsExactly(replay.get("id").asString());
		assertThat(runs("count", sdk + "-lost")).isEqualTo(1);
	}

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void theSameKeyWithOtherArgumentsReachesTheApplicationAsAConflict(String sdk) throws Exception {
		JsonNode conflict = step(sdk, "conflict");
		JsonNode error = conflict.path("error");
		assertThat(error.path("name").asString()).as(conflict.toString()).isEqualTo(protocolError(sdk));
		assertThat(error.path("code").asInt()).isEqualTo(-32008);
		assertThat(error.path("data").path("code").asString()).isEqualTo("idempotency_key_conflict");
		assertThat(error.path("data").path("status").asInt()).isEqualTo(409);
		// An answer: the recipe did not call again.
		assertThat(exchanges(conflict)).hasSize(1);
		assertThat(runs("count", sdk + "-other")).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void aConcurrentCallWithTheKeyOfACallInFlightReachesTheApplicationWithRetryAfter(String sdk) throws Exception {
		JsonNode inFlight = step(sdk, "inFlight");
		JsonNode error = inFlight.path("error");
		assertThat(error.path("name").asString()).as(inFlight.toString()).isEqualTo(protocolError(sdk));
		assertThat(error.path("data").path("code").asString()).isEqualTo("idempotency_in_flight");
		assertThat(error.path("data").path("status").asInt()).isEqualTo(409);
		assertThat(error.path("data").path("retryAfter").isNumber()).as(inFlight.toString()).isTrue();
		assertThat(error.path("data").path("retryAfter").asInt()).isGreaterThanOrEqualTo(1);
		// The first call gets its result, and the key's replay afterwards.
		String text = "item " + sdk + "-slow run 1";
		assertThat(step(sdk, "inFlightFirst").path("text").asString()).isEqualTo(text);
		JsonNode again = step(sdk, "inFlightAgain");
		assertThat(again.path("text").asString()).as(again.toString()).isEqualTo(text);
		assertThat(again.path("replayMark").path("replayed").asBoolean(false)).isTrue();
		assertThat(runs("slow", sdk + "-slow")).isEqualTo(1);
	}

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void anUpstreamThatFailedAfterTheRunReachesTheApplicationAsOutcomeUnknown(String sdk) throws Exception {
		JsonNode crash = step(sdk, "crash");
		List<JsonNode> exchanges = exchanges(crash);
		assertThat(exchanges).as(crash.toString()).hasSize(2);
		// The first attempt: the upstream's 5xx, a transport error to the SDK; the recipe
		// calls again with the key and gets the gateway's answer, which it hands on.
		assertThat(exchanges.get(0).get("status").asInt()).isGreaterThanOrEqualTo(500);
		assertThat(exchanges.get(1).get("status").asInt()).isEqualTo(200);
		JsonNode error = crash.path("error");
		assertThat(error.path("name").asString()).isEqualTo(protocolError(sdk));
		assertThat(error.path("data").path("code").asString()).isEqualTo("idempotency_outcome_unknown");
		assertThat(error.path("data").path("status").asInt()).isEqualTo(409);
		assertThat(runs("crash", sdk + "-crash")).isEqualTo(1);
	}

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void aCallOverItsQuotaReachesTheApplicationAsRateLimitedWithRetryAfter(String sdk) throws Exception {
		List<JsonNode> limited = reports.get(sdk).get("steps").get("limited").valueStream().toList();
		// The quota: two calls, the third refused.
		assertThat(limited).as(limited.toString()).hasSize(3);
		assertThat(limited.subList(0, 2)).allSatisfy((s) -> assertThat(s.has("error")).as(s.toString()).isFalse());
		assertRateLimited(sdk, limited.get(2));
		assertRateLimited(sdk, step(sdk, "limitedKeyed"));
		assertThat(runs("limited", sdk + "-limited-1")).isEqualTo(1);
		assertThat(runs("limited", sdk + "-limited-2")).isEqualTo(1);
		assertThat(runs("limited", sdk + "-limited-3")).isZero();
		assertThat(runs("limited", sdk + "-limited-keyed")).isZero();
	}

	private static void assertRateLimited(String sdk, JsonNode step) {
		JsonNode error = step.path("error");
		assertThat(error.path("name").asString()).as(step.toString()).isEqualTo(protocolError(sdk));
		assertThat(error.path("code").asInt()).isEqualTo(-32011);
		assertThat(error.path("data").path("code").asString()).isEqualTo("rate_limited");
		assertThat(error.path("data").path("status").asInt()).isEqualTo(429);
		assertThat(error.path("data").path("limit").asString()).isEqualTo(GatewayProcess.COUNTING_LIMIT);
		assertThat(error.path("data").path("retryAfter").isNumber()).as(step.toString()).isTrue();
		assertThat(error.path("data").path("retryAfter").asInt()).isGreaterThanOrEqualTo(1);
	}

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void aHeaderKeyedRetryOfAnEventStreamIsStillNotReplayable(String sdk) throws Exception {
		JsonNode header = step(sdk, "header");
		List<JsonNode> exchanges = exchanges(header);
		assertThat(exchanges).as(header.toString()).allSatisfy((e) -> {
			assertThat(e.get("form").asString()).isEqualTo("header");
			assertThat(e.get("id").asString()).isEqualTo(exchanges.get(0).get("id").asString());
		});
		assertThat(exchanges.get(0).get("status").asInt()).isEqualTo(200);
		assertThat(exchanges.get(0).get("contentType").asString()).contains("text/event-stream");
		JsonNode last = exchanges.get(exchanges.size() - 1);
		assertThat(last.get("status").asInt()).isEqualTo(409);
		assertThat(last.get("dataCode").asString()).isEqualTo("idempotency_response_not_replayable");
		// An HTTP error status: a transport error to the SDK, as before.
		assertThat(header.has("error")).as(header.toString()).isTrue();
		assertThat(header.path("error").path("name").asString()).isNotEqualTo(protocolError(sdk));
		assertThat(header.path("error").path("data").path("code").isMissingNode()).isTrue();
		assertThat(runs("count", sdk + "-header")).isEqualTo(1);
	}

	@ParameterizedTest
	@ValueSource(strings = { V1, V2 })
	void theClientPassedEveryCheckOfItsOwn(String sdk) {
		assertThat(reports.get(sdk).get("failures").values()).isEmpty();
	}

	private static String protocolError(String sdk) {
		return V1.equals(sdk) ? "McpError" : "ProtocolError";
	}

	private static JsonNode step(String sdk, String name) {
		JsonNode step = reports.get(sdk).get("steps").get(name);
		assertThat(step).as("step %s of the %s report", name, sdk).isNotNull();
		return step;
	}

	private static List<JsonNode> exchanges(JsonNode step) {
		List<JsonNode> exchanges = step.get("exchanges").valueStream().toList();
		assertThat(exchanges).as(step.toString()).isNotEmpty();
		return exchanges;
	}

	/** JSON-RPC ids as strings (the SDKs send numbers). */
	private static List<String> ids(JsonNode ids) {
		return ids.valueStream().map(JsonNode::asString).toList();
	}

	private static int runs(String tool, String item) throws Exception {
		return NodeInterop.countingServerRuns(countingPort).path(tool).path(item).asInt(0);
	}

}
