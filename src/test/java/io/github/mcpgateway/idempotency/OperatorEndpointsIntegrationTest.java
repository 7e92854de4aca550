package io.github.mcpgateway.idempotency;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestJsonRpc;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The operator endpoints: idempotency, policy and sessions. Operators are humans matching
 * ops-*.
 */
@ExtendWith(OutputCaptureExtension.class)
class OperatorEndpointsIntegrationTest extends IdempotencyIntegrationTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final String operator = TestJwts.jwt().human("ops-anna").sign();

	@Test
	void statisticsAreExactAfterAScriptedSequenceOfKeyedCalls() {
		JsonNode before = stats();
		String replayed = uniqueKey();
		String failed = uniqueKey();

		upstream.reply(Replies.jsonResult("{}"));
		keyedCall(replayed);
		keyedCall(replayed);
		upstream.reply(Replies.raw(500, "application/json", "{}"));
		keyedCall(failed);
		keyedCall(failed);

		// Outcome counters are fed by the audit event, published just after each reply
		// completes.
		await().atMost(Duration.ofSeconds(5))
			.until(() -> outcome(stats(), "unknown_outcome") - outcome(before, "unknown_outcome") == 1);
		JsonNode after = stats();
		assertThat(delta(before, after, "entries")).isEqualTo(2);
		assertThat(delta(before, after, "replayable")).isEqualTo(1);
		assertThat(delta(before, after, "tombstones")).isEqualTo(1);
		assertThat(after.get("inFlight").asLong()).isZero();
		assertThat(outcome(after, "first") - outcome(before, "first")).isEqualTo(2);
		assertThat(outcome(after, "replay") - outcome(before, "replay")).isEqualTo(1);
		assertThat(outcome(after, "unknown_outcome") - outcome(before, "unknown_outcome")).isEqualTo(1);
		assertThat(after.get("store").asString()).isEqualTo("memory");
	}

	@Test
	void clearingATombstoneByItsAuditedHashLetsTheNextRetryRun(CapturedOutput output) {
		String key = uniqueKey();
		upstream.reply(Replies.raw(500, "application/json", "{}"));
		keyedCall(key);
		assertThat(keyedCall(key).body()).contains("idempotency_outcome_unknown");
		String keyHash = keyHash(key);
		assertThat(output.getOut()).contains("\"idempotency_key_hash\":\"" + keyHash + "\"");

		HttpResponse<String> cleared = operatorCall("DELETE", "/actuator/idempotency/" + keyHash, this.operator);

		assertThat(cleared.statusCode()).isEqualTo(200);
		upstream.reply(Replies.jsonResult("{}"));
		assertThat(keyedCall(key).statusCode()).isEqualTo(200);
		assertThat(upstream.count()).isEqualTo(2);
		assertThat(operatorCall("DELETE", "/actuator/idempotency/" + keyHash, this.operator).statusCode())
			.isEqualTo(404);
		await().atMost(Duration.ofSeconds(5))
			.until(() -> output.getOut().contains("\"operator_action\":\"idempotency_tombstone_cleared\""));
		assertThat(output.getOut()).contains("\"operator\":\"ops-anna\"");
	}

	@Test
	void operatorEndpointsRefuseUnauthenticatedAndNonOperatorCallers() {
		for (String path : new String[] { "/actuator/idempotency", "/actuator/policy", "/actuator/sessions",
				"/actuator/metrics" }) {
			HttpResponse<String> anonymous = operatorCall("GET", path, null);
			assertThat(anonymous.statusCode()).as(path).isEqualTo(401);
			assertThat(anonymous.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat(anonymous.body()).contains("\"code\":\"unauthenticated\"");
			HttpResponse<String> notOperator = operatorCall("GET", path, this.token);
			assertThat(notOperator.statusCode()).as(path).isEqualTo(403);
			assertThat(notOperator.body()).contains("\"code\":\"operator_required\"");
			assertThat(operatorCall("GET", path, this.operator).statusCode()).as(path).isEqualTo(200);
		}
		assertThat(operatorCall("DELETE", "/actuator/idempotency/0123456789abcdef", this.token).statusCode())
			.isEqualTo(403);
	}

	@Test
	void endpointsShowPolicySessionsAndNeverAKeyTokenOrPayload() {
		String key = uniqueKey();
		upstream.reply(Replies.jsonResult("{\"content\":[{\"type\":\"text\",\"text\":\"secret-result-text\"}]}"));
		keyedCall(key);

		String policy = operatorCall("GET", "/actuator/policy", this.operator).body();
		String sessions = operatorCall("GET", "/actuator/sessions", this.operator).body();
		String idempotency = operatorCall("GET", "/actuator/idempotency", this.operator).body();

		assertThat(policy).contains("\"path\":\"/mcp/test/echo\"")
			.contains("\"uid\":\"uid-echo\"")
			.contains("\"lastReload\"");
		assertThat(sessions).contains("\"bindings\":{\"store\":\"memory\",\"active\":")
			.contains("\"revocation\":{\"enabled\":true");
		assertThat(policy + sessions + idempotency).doesNotContain(key)
			.doesNotContain(this.token)
			.doesNotContain(this.operator)
			.doesNotContain("secret-argument")
			.doesNotContain("secret-result-text");
	}

	private String keyHash(String key) {
		McpPrincipal principal = new McpPrincipal(json
			.readTree(new String(java.util.Base64.getUrlDecoder().decode(this.token.split("\\.")[1]),
					StandardCharsets.UTF_8))
			.get("sub")
			.asString(), "agent-1", "blue");
		return IdempotencyHasher
			.entry(key, principal, null, "uid-echo",
					TestJsonRpc.parser().parse(toolCall(1, "echo").getBytes(StandardCharsets.UTF_8)))
			.entryKey()
			.substring(0, 16);
	}

	private JsonNode stats() {
		return json.readTree(operatorCall("GET", "/actuator/idempotency", this.operator).body());
	}

	private static long delta(JsonNode before, JsonNode after, String field) {
		return after.get(field).asLong() - before.get(field).asLong();
	}

	private static long outcome(JsonNode stats, String outcome) {
		return stats.get("outcomes").get(outcome).asLong();
	}

	private HttpResponse<String> operatorCall(String method, String path, String token) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
			.method(method, HttpRequest.BodyPublishers.noBody());
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		return send(request.build());
	}

}
