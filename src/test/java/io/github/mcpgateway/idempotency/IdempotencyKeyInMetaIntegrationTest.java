package io.github.mcpgateway.idempotency;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.support.Replies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Idempotency-Key in {@code params._meta} (ADR 0020), through the real chain on the
 * gateway's default settings (no {@code request-hash}, {@code event-streams} or
 * {@code refusal-status} switch): a retry is a call again, an event stream is replayed,
 * every answer is a JSON-RPC message, and the upstream never sees the key.
 */
class IdempotencyKeyInMetaIntegrationTest extends IdempotencyIntegrationTest {

	private static final String MEMBER = "io.github.mcpgateway/idempotency-key";

	@Test
	void aRetryWithANewIdAndNewPerAttemptMetaIsReplayedWithItsOwnIdMarkedAndTheToolRanOnce() {
		String key = uniqueKey();

		HttpResponse<String> first = post(ECHO, this.token,
				call(7, "{\"text\":\"hi\"}", ",\"progressToken\":\"p-1\",\"" + MEMBER + "\":\"" + key + "\""));
		HttpResponse<String> retry = post(ECHO, this.token,
				call("\"r-8\"", "{\"text\":\"hi\"}", "\"" + MEMBER + "\":\"" + key + "\",\"progressToken\":\"p-2\""));

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().firstValue("Idempotency-Replayed")).isEmpty();
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		JsonNode replay = JsonMapper.shared().readTree(retry.body());
		assertThat(replay.get("id").asString()).as("the retry's own id, with its type").isEqualTo("r-8");
		assertThat(replay.at("/result/_meta/io.github.mcpgateway~1idempotency/replayed").asBoolean()).isTrue();
		assertThat(replay.at("/result/ok").asBoolean()).isTrue();
		assertThat(upstream.count()).as("the tool ran once").isEqualTo(1);
	}

	@Test
	void theUpstreamGetsTheBodyWithoutTheMemberAndEveryOtherByteAsSent() {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":1.50,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
				+ "\"arguments\":{\"n\":1e2,\"s\":\"\\u00e9\"},\"_meta\":{\"progressToken\":1, \"" + MEMBER + "\" : \""
				+ uniqueKey() + "\" }}}";

		assertThat(post(ECHO, this.token, body).statusCode()).isEqualTo(200);

		assertThat(upstream.received().get(0).bodyText())
			.isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":1.50,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
					+ "\"arguments\":{\"n\":1e2,\"s\":\"\\u00e9\"},\"_meta\":{\"progressToken\":1}}}");
	}

	@Test
	void anEventStreamReplyIsReplayedWithoutTheOperatorsSwitch() {
		upstream.reply(Replies.sse(List.of(
				message("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
						+ "\"params\":{\"progressToken\":1,\"progress\":1}}"),
				message("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}")),
				0));
		String key = uniqueKey();

		HttpResponse<String> first = post(ECHO, this.token, call(1, "{}", keyMember(key)));
		HttpResponse<String> retry = await().until(() -> post(ECHO, this.token, call(2, "{}", keyMember(key))),
				(response) -> !response.body().contains("idempotency_in_flight"));

		assertThat(first.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
		assertThat(retry.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(retry.body()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"_meta\":{"
				+ "\"io.github.mcpgateway/idempotency\":{\"replayed\":true}},\"content\":[{\"type\":\"text\","
				+ "\"text\":\"done\"}]}}");
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void otherArgumentsWithTheSameKeyAreAConflictAnsweredAsAJsonRpcError() {
		String key = uniqueKey();
		post(ECHO, this.token, call(1, "{\"text\":\"a\"}", keyMember(key)));

		HttpResponse<String> conflict = post(ECHO, this.token, call(2, "{\"text\":\"b\"}", keyMember(key)));

		assertInBand(conflict, 2, "idempotency_key_conflict", 409);
		assertThat(conflict.body()).contains("\"code\":-32008");
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void aRetryWhileTheCallRunsIsInFlightWithRetryAfterInItsData() throws Exception {
		upstream.reply(Replies.silentFor(700, Replies.jsonResult("{}")));
		String key = uniqueKey();
		CompletableFuture<HttpResponse<String>> first = CompletableFuture
			.supplyAsync(() -> post(SLOW, this.token, call(1, "{}", keyMember(key))));
		await().until(() -> upstream.count() == 1);

		HttpResponse<String> retry = post(SLOW, this.token, call(2, "{}", keyMember(key)));

		assertInBand(retry, 2, "idempotency_in_flight", 409);
		JsonNode data = JsonMapper.shared().readTree(retry.body()).at("/error/data");
		assertThat(data.get("retryAfter").isIntegralNumber()).isTrue();
		assertThat(data.get("retryAfter").asInt()).isEqualTo(1);
		assertThat(retry.headers().firstValue("Retry-After")).hasValue("1");
		assertThat(first.get().statusCode()).isEqualTo(200);
		assertThat(post(SLOW, this.token, call(3, "{}", keyMember(key))).headers().firstValue("Idempotency-Replayed"))
			.hasValue("true");
	}

	@Test
	void aRetryAfterAnUpstreamFailureIsOutcomeUnknownAndNeverRunsAgain() {
		upstream.reply(Replies.raw(500, "application/json", "{}"));
		String key = uniqueKey();
		HttpResponse<String> first = post(ECHO, this.token, call(1, "{}", keyMember(key)));

		HttpResponse<String> retry = post(ECHO, this.token, call(2, "{}", keyMember(key)));

		assertThat(first.statusCode()).as("the upstream's failure itself is the transport's").isNotEqualTo(200);
		assertInBand(retry, 2, "idempotency_outcome_unknown", 409);
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void anInvalidKeyInTheMessageIsRefusedInBandAndNothingRuns() {
		HttpResponse<String> number = post(ECHO, this.token,
				"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
						+ "\"_meta\":{\"" + MEMBER + "\":42}}}");
		HttpResponse<String> differs = post(ECHO, this.token, call(4, "{}", keyMember("one")), "Idempotency-Key",
				"two");

		assertInBand(number, 3, "idempotency_key_invalid", 400);
		assertInBand(differs, 4, "idempotency_key_invalid", 400);
		assertThat(upstream.count()).isZero();
	}

	@Test
	void aHeaderAndAnEqualMemberAreOneKeySentInTheMessage() {
		String key = uniqueKey();
		post(ECHO, this.token, call(1, "{}", keyMember(key)), "Idempotency-Key", key);

		HttpResponse<String> retry = post(ECHO, this.token, call(2, "{}", keyMember(key)));

		assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(retry.body()).contains("\"id\":2").contains("\"replayed\":true");
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void theMemberOnAnyOtherMessageIsUnsupported() {
		HttpResponse<String> list = post(ECHO, this.token, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\","
				+ "\"params\":{\"_meta\":{\"" + MEMBER + "\":\"k\"}}}");
		HttpResponse<String> notification = post(ECHO, this.token,
				"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,"
						+ "\"progress\":1,\"_meta\":{\"" + MEMBER + "\":\"k\"}}}");

		assertInBand(list, 5, "idempotency_unsupported_request", 400);
		assertThat(notification.statusCode()).as("a notification has no response to carry the error").isEqualTo(400);
		assertThat(notification.body()).contains("\"code\":\"idempotency_unsupported_request\"");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void theHeaderFormKeepsTheContractsStatusesAndHash() {
		String key = uniqueKey();
		keyed(ECHO, this.token, toolCall(1, "echo"), key);

		HttpResponse<String> newId = keyed(ECHO, this.token, toolCall(2, "echo"), key);
		HttpResponse<String> otherForm = post(ECHO, this.token, call(1, "{}", keyMember(key)));

		assertGatewayError(newId, 409, "idempotency_key_conflict");
		assertThat(otherForm.body()).as("the same key sent the other way is another request")
			.contains("idempotency_key_conflict");
		assertThat(upstream.count()).isEqualTo(1);
	}

	private static final String ECHO = "/mcp/test/echo";

	private static final String SLOW = "/mcp/test/slow";

	private static void assertInBand(HttpResponse<String> response, int id, String code, int status) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode body = JsonMapper.shared().readTree(response.body());
		assertThat(body.get("id").asInt()).isEqualTo(id);
		assertThat(body.at("/error/data/code").asString()).isEqualTo(code);
		assertThat(body.at("/error/data/status").asInt()).isEqualTo(status);
	}

	private static String keyMember(String key) {
		return "\"" + MEMBER + "\":\"" + key + "\"";
	}

	private static String call(int id, String arguments, String meta) {
		return call(Integer.toString(id), arguments, meta);
	}

	private static String call(String id, String arguments, String meta) {
		String members = meta.startsWith(",") ? meta.substring(1) : meta;
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
				+ "\"arguments\":" + arguments + ",\"_meta\":{" + members + "}}}";
	}

	private static String message(String json) {
		return "event: message\ndata: " + json + "\n\n";
	}

}
