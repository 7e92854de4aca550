package io.github.mcpgateway.idempotency;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestUpstream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 36, finding 3, from outside: one human with four agents (the agent part of a
 * principal is the client's choice, here {@code act.sub}) opens eight sessions each and
 * makes eight keyed calls per session whose replies pass the reply cap, each leaving a
 * "not replayable" tombstone. Before the per-human budget (ADR 0019) those 256 tombstones
 * filled the store-wide cap and every other caller's keyed call got
 * {@code 429 idempotency_capacity} for five minutes. The reply cap is lowered to 1 KB so
 * that a 2 KB reply passes it; it also gives this test a store of its own.
 */
@TestPropertySource(properties = "gateway.idempotency.limits.max-reply-size=1KB")
class IdempotencyCapacityPerHumanIntegrationTest extends IdempotencyIntegrationTest {

	private static final TestUpstream.Reply SESSIONS_AND_LARGE_REPLIES = largeRepliesInSessions();

	@Test
	void oneHumanAcrossAgentsAndSessionsCannotLockOtherCallersOutOfTheIdempotencyKey() {
		upstream.reply(SESSIONS_AND_LARGE_REPLIES);
		String human = "mallory-" + uniqueKey();
		List<String> firstKeys = new ArrayList<>();
		int ran = 0;
		int refused = 0;
		for (int agent = 0; agent < 4; agent++) {
			String token = TestJwts.jwt().human(human).agent("agent-" + agent).sign();
			for (int session = 0; session < 8; session++) {
				String sessionId = initialize("/mcp/test/echo", token);
				for (int call = 0; call < 8; call++) {
					String key = uniqueKey();
					HttpResponse<String> response = keyed("/mcp/test/echo", token, toolCall(call, "echo"), key,
							"Mcp-Session-Id", sessionId);
					if (response.statusCode() == 200) {
						ran++;
						firstKeys.add(token + " " + sessionId + " " + call + " " + key);
					}
					else {
						assertGatewayError(response, 429, "idempotency_capacity");
						refused++;
					}
				}
			}
		}
		int upstreamCalls = upstream.count();

		String victim = TestJwts.jwt().human("victim-" + uniqueKey()).agent("victim-agent").sign();
		HttpResponse<String> victimCall = keyed("/mcp/test/echo", victim, toolCall(1, "echo"), uniqueKey());

		assertThat(victimCall.statusCode()).as("another human's keyed call runs").isEqualTo(200);
		assertThat(upstream.count()).isEqualTo(upstreamCalls + 1);
		assertThat(ran).as("the human's tombstone budget").isEqualTo(32);
		assertThat(refused).isEqualTo(256 - 32);
		String[] first = firstKeys.get(0).split(" ");
		HttpResponse<String> retry = keyed("/mcp/test/echo", first[0], toolCall(Integer.parseInt(first[2]), "echo"),
				first[3], "Mcp-Session-Id", first[1]);
		assertGatewayError(retry, 409, "idempotency_response_not_replayable");
		assertThat(upstream.count()).as("a tombstone is never dropped: the retry did not run")
			.isEqualTo(upstreamCalls + 1);
		String scrape = send(HttpRequest.newBuilder(uri("/actuator/prometheus")).build()).body();
		assertThat(scrape).contains(
				"mcp_gateway_idempotency_capacity_refusals_total{limit=\"tombstones_per_human\"} " + (256 - 32) + ".0");
	}

	/** {@code initialize} opens a session; any other call gets a 2 KB reply. */
	private static TestUpstream.Reply largeRepliesInSessions() {
		TestUpstream.Reply sessions = Replies.sessions("human-cap");
		TestUpstream.Reply large = Replies.sized(2048);
		return (request, exchange) -> {
			if (request.bodyText().contains("\"method\":\"initialize\"")) {
				sessions.write(request, exchange);
			}
			else {
				large.write(request, exchange);
			}
		};
	}

}
