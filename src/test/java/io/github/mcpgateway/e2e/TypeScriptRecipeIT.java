package io.github.mcpgateway.e2e;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The TypeScript client recipe ({@code src/test/node/idempotent-fetch.mjs}, driven by
 * {@code recipe.mjs}) with the official TypeScript SDK, through the packaged gateway
 * started with the options the recipe needs, against two upstreams: server-everything,
 * which answers {@code tools/call} with event streams, and {@code json-server.mjs}, which
 * answers JSON. The script runs once against each; each test checks its reports. Skipped
 * where {@code node} or {@code npm} is missing.
 */
class TypeScriptRecipeIT {

	private static final String EVERYTHING = "everything";

	private static final String JSON = "json";

	/**
	 * The same recipe on the TypeScript SDK v2 ({@code @modelcontextprotocol/client}),
	 * against server-everything.
	 */
	private static final String V2 = "everything-sdk-v2";

	@RegisterExtension
	static final GatewayProcess gateway = new GatewayProcess("typescript-recipe");

	private static NodeInterop node;

	private static Map<String, JsonNode> reports;

	@BeforeAll
	static void runTheRecipeAgainstBothUpstreams() throws Exception {
		node = NodeInterop.installed();
		int everythingPort = node.startServerEverything("recipe-everything").port();
		int jsonPort = node.startJsonServer("recipe-json-server").port();
		gateway.startInFrontOf(everythingPort, jsonPort, "--gateway.idempotency.event-streams=replay",
				"--gateway.idempotency.request-hash=without-jsonrpc-id");
		reports = Map.of(EVERYTHING, recipe(EVERYTHING, GatewayProcess.GUARDED, "v1"), JSON,
				recipe(JSON, GatewayProcess.JSON, "v1"), V2, recipe(EVERYTHING, GatewayProcess.GUARDED, "v2"));
	}

	private static JsonNode recipe(String upstream, String path, String sdk) throws Exception {
		String token = TestJwts.jwt()
			.human("alice")
			.team("blue")
			.agent("recipe-agent")
			.audience(gateway.url(path))
			.sign();
		NodeInterop.Finished run = node.run("recipe-client-" + upstream + "-" + sdk,
				Map.of("MCP_URL", gateway.url(path), "MCP_TOKEN", token, "SDK", sdk), Duration.ofSeconds(40),
				"recipe.mjs");
		return run.report("TypeScript recipe (SDK " + sdk + ") against " + upstream);
	}

	@AfterAll
	static void stopEverything() throws InterruptedException {
		gateway.stopAfter(node);
	}

	@ParameterizedTest
	@ValueSource(strings = { EVERYTHING, JSON, V2 })
	void keyedCallRunsAndAnswersOnce(String upstream) {
		JsonNode first = step(upstream, "first");
		assertThat(first.get("text").asString()).contains("42");
		assertThat(attempts(first)).containsExactly("200");
	}

	@ParameterizedTest
	@ValueSource(strings = { EVERYTHING, JSON, V2 })
	void sameCallWithTheSameKeyThroughTheSdkIsReplayed(String upstream) {
		JsonNode repeat = step(upstream, "repeat");
		if (JSON.equals(upstream)) {
			// A JSON reply reaches the client only once recorded: the retry is a replay.
			assertThat(attempts(repeat)).as(repeat.toString()).containsExactly("200 replayed");
		}
		else {
			// An event stream is not held back (idempotency.md): a retry sent the moment
			// the
			// stream ended may still find the key in flight, and the recipe retries.
			assertThat(attempts(repeat)).as(repeat.toString()).last().isEqualTo("200 replayed");
			assertThat(attempts(repeat).subList(0, attempts(repeat).size() - 1)).as(repeat.toString())
				.allMatch("409 idempotency_in_flight"::equals);
		}
		assertThat(repeat.get("text").asString()).isEqualTo(step(upstream, "first").get("text").asString());
	}

	@ParameterizedTest
	@ValueSource(strings = { EVERYTHING, JSON, V2 })
	void otherArgumentsWithTheSameKeyFailWithTheGatewaysCode(String upstream) {
		JsonNode conflict = step(upstream, "conflict");
		assertThat(conflict.get("errorName").asString()).isEqualTo("IdempotencyError");
		assertThat(conflict.get("errorStatus").asInt()).isEqualTo(409);
		assertThat(conflict.get("errorCode").asString()).isEqualTo("idempotency_key_conflict");
	}

	@ParameterizedTest
	@ValueSource(strings = { EVERYTHING, JSON })
	void lostConnectionIsRecoveredByResendingTheIdenticalRequest(String upstream) {
		JsonNode lost = step(upstream, "lost");
		List<String> attempts = attempts(lost);
		// In between, 409 idempotency_in_flight while the gateway still relays the
		// stream.
		assertThat(attempts).as(lost.toString()).first().isEqualTo("no answer");
		assertThat(attempts.subList(1, attempts.size() - 1)).allMatch("409 idempotency_in_flight"::equals);
		assertThat(attempts).last().isEqualTo("200 replayed");
		assertThat(lost.get("text").asString()).contains("7");
	}

	@ParameterizedTest
	@ValueSource(strings = { EVERYTHING, JSON })
	void theToolRanOncePerKey(String upstream) {
		// Keys "first" (first, repeat, conflict) and "lost" of each run
		// (server-everything:
		// SDK v1 and v2): audited by key hash, and sent upstream once each.
		int keys = upstream.equals(EVERYTHING) ? 4 : 2;
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			Map<String, Long> dispatchedByKey = gateway.auditLines()
				.stream()
				.map((line) -> JsonMapper.shared().readTree(line))
				.filter((event) -> event.path("server").asString("").equals(upstream)
						&& event.has("idempotency_key_hash"))
				.collect(Collectors.groupingBy((event) -> event.get("idempotency_key_hash").asString(),
						Collectors.filtering((event) -> event.get("dispatched").asBoolean(), Collectors.counting())));
			assertThat(dispatchedByKey).as("dispatched keyed requests by key hash")
				.hasSize(keys)
				.allSatisfy((key, dispatched) -> assertThat(dispatched).isEqualTo(1L));
		});
	}

	@Test
	void theJsonServerRanTheToolOncePerKey() throws Exception {
		List<String> runs = Files.readAllLines(NodeInterop.LOGS.resolve("recipe-json-server.out"))
			.stream()
			.filter((line) -> line.startsWith("ran get-sum"))
			.toList();
		assertThat(runs).containsExactly("ran get-sum 2 40", "ran get-sum 3 4");
	}

	@ParameterizedTest
	@ValueSource(strings = { EVERYTHING, JSON })
	void recipePassesEveryCheckOfItsOwn(String upstream) {
		assertThat(reports.get(upstream).get("failures").values()).isEmpty();
	}

	private static JsonNode step(String upstream, String name) {
		return reports.get(upstream).get("steps").get(name);
	}

	/**
	 * Each attempt as {@code 200}, {@code 200 replayed}, {@code 409 <code>} or
	 * {@code no answer}.
	 */
	private static List<String> attempts(JsonNode step) {
		return step.get("attempts").valueStream().map((a) -> {
			if (a.get("status").asInt() == 0) {
				return "no answer";
			}
			return a.get("status").asInt() + (a.get("replayed").asBoolean() ? " replayed" : "")
					+ (a.get("code").isString() ? " " + a.get("code").asString() : "");
		}).toList();
	}

}
