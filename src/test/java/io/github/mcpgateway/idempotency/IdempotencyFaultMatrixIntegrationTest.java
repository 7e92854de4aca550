package io.github.mcpgateway.idempotency;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.mcpgateway.support.RawHttp;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestUpstream.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every upstream fault crossed with every client behaviour: the stored outcome decides
 * the retry's answer, and the upstream never runs the call twice.
 */
class IdempotencyFaultMatrixIntegrationTest extends IdempotencyIntegrationTest {

	enum Fault {

		NONE(Replies.jsonResult("{\"ok\":true}"), null),
		STATUS_500(Replies.raw(500, "application/json", "{}"), "idempotency_outcome_unknown"),
		STATUS_502(Replies.raw(502, "application/json", "{}"), "idempotency_outcome_unknown"),
		STATUS_503(Replies.raw(503, "application/json", "{}"), "idempotency_outcome_unknown"),
		STATUS_504(Replies.raw(504, "application/json", "{}"), "idempotency_outcome_unknown"),
		RESET_MID_BODY(Replies.resetMidBody(), "idempotency_outcome_unknown"),
		SILENT_PAST_TIMEOUT(Replies.silentFor(1600, Replies.jsonResult("{}")), "idempotency_outcome_unknown"),
		TRICKLE_BELOW_IDLE_TIMEOUT(Replies.trickle(2000), "idempotency_outcome_unknown"),
		OVER_CAP(Replies.sized(32 * 1024 + 1), "idempotency_response_not_replayable"),
		GZIP(Replies.gzipped("{\"ok\":true}"), "idempotency_response_not_replayable"),
		SSE_CUT(Replies.sseCut(), "idempotency_outcome_unknown");

		final Reply reply;

		/** The retry's error code, {@code null} for a replay. */
		final String retryCode;

		Fault(Reply reply, String retryCode) {
			this.reply = reply;
			this.retryCode = retryCode;
		}

	}

	enum Client {

		WAITS, DISCONNECTS_BEFORE_THE_ANSWER, DISCONNECTS_WHILE_THE_REPLY_IS_WRITTEN

	}

	static Stream<Arguments> matrix() {
		List<Arguments> cases = new ArrayList<>();
		for (Fault fault : Fault.values()) {
			for (Client client : Client.values()) {
				cases.add(Arguments.of(fault, client));
			}
		}
		return cases.stream();
	}

	@ParameterizedTest(name = "{0}, client {1}")
	@MethodSource("matrix")
	void retryAnswerFollowsTheStoredOutcomeAndTheToolNeverRunsTwice(Fault fault, Client client) throws IOException {
		upstream.reply(fault.reply);
		String key = uniqueKey();

		first(client, key);
		await().atMost(Duration.ofSeconds(15))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> !keyedCall(key).body().contains("idempotency_in_flight"));

		for (int i = 0; i < 3; i++) {
			HttpResponse<String> retry = keyedCall(key);
			if (fault.retryCode == null) {
				assertThat(retry.headers().firstValue("Idempotency-Replayed")).as(retry.body()).hasValue("true");
			}
			else {
				assertGatewayError(retry, 409, fault.retryCode);
			}
		}
		assertThat(upstream.count()).isEqualTo(1);
	}

	private void first(Client client, String key) throws IOException {
		if (client == Client.WAITS) {
			try {
				keyedCall(key);
			}
			catch (IllegalStateException replyBroke) {
				// A reply the upstream broke mid-way reaches the client as a failed
				// connection.
			}
			return;
		}
		try (Socket socket = RawHttp.open(this.port, RawHttp.post("/mcp/test/echo", toolCall(1, "echo"),
				"Authorization: Bearer " + this.token, "Idempotency-Key: " + key))) {
			await().atMost(Duration.ofSeconds(5)).until(() -> upstream.count() == 1);
			if (client == Client.DISCONNECTS_WHILE_THE_REPLY_IS_WRITTEN) {
				socket.setSoTimeout(10_000);
				InputStream in = socket.getInputStream();
				in.read();
			}
			socket.setSoLinger(true, 0);
		}
	}

}
