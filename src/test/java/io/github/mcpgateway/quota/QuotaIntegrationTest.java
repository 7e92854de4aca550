package io.github.mcpgateway.quota;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.mcpgateway.policy.LivePolicy;
import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 29's limits with the memory store, on a server of their own that the test writes
 * into the policy file (a fresh UID each time, so buckets never carry over): what counts,
 * who shares a bucket, several limits, a keyed call, a live reload and a bad one.
 */
@ExtendWith(OutputCaptureExtension.class)
class QuotaIntegrationTest extends GatewayIntegrationTest {

	private static final String PATH = "/mcp/test/limited";

	private static final AtomicInteger servers = new AtomicInteger();

	@Autowired
	private LivePolicy livePolicy;

	@Autowired
	private MeterRegistry meters;

	private final String alice = TestJwts.jwt().human("alice").team("blue").sign();

	private final String bob = TestJwts.jwt().human("bob").team("blue").sign();

	private final String erin = TestJwts.jwt().human("erin").team("green").sign();

	@Test
	void theSixthToolCallInAMinuteIsRefusedAndOnlyToolCallsCount() {
		limits("""
				      - name: calls-per-minute
				        tokens: 5
				        period: 1m
				""");
		assertThat(
				call(this.alice, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{}}").statusCode())
			.isEqualTo(200);
		call(this.alice, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
		call(this.alice, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
		assertThat(call(this.alice, toolCall(2, "admin_reset")).body()).as("a refused grant consumes nothing")
			.contains("tool_not_granted");
		for (int i = 0; i < 5; i++) {
			assertThat(call(this.alice, toolCall(10 + i, "echo")).statusCode()).isEqualTo(200);
		}
		int upstreamCalls = toolCallsUpstream();

		HttpResponse<String> sixth = call(this.alice, toolCall(20, "echo"));

		assertThat(QuotaRefusals.code(sixth)).isEqualTo("rate_limited");
		assertThat(sixth.body()).contains("\"code\":\"rate_limited\"")
			.contains("\"limit\":\"calls-per-minute\"")
			.contains("\"id\":20");
		long retryAfter = Long.parseLong(sixth.headers().firstValue("Retry-After").orElseThrow());
		assertThat(retryAfter).as("a token comes back every 12 s").isBetween(1L, 12L);
		assertThat(toolCallsUpstream()).isEqualTo(upstreamCalls).isEqualTo(5);
		assertThat(call(this.bob, toolCall(21, "echo")).statusCode()).as("another principal has its own bucket")
			.isEqualTo(200);
		assertThat(this.meters.get("mcp.gateway.quota.decisions")
			.tags("limit", "calls-per-minute", "outcome", "refused")
			.counter()
			.count()).isGreaterThanOrEqualTo(1);
	}

	@Test
	void principalsWhoseHumanAndAgentJoinToTheSameTextHaveABucketEach() {
		limits("""
				      - name: one-an-hour
				        tokens: 1
				        period: 1h
				""");
		// Issue 36: both read "alice/ci/deploy" once joined with a slash.
		String aliceWithCiDeploy = TestJwts.jwt().human("alice").agent("ci/deploy").team("blue").sign();
		String aliceCiWithDeploy = TestJwts.jwt().human("alice/ci").agent("deploy").team("blue").sign();

		assertThat(call(aliceWithCiDeploy, toolCall(1, "echo")).statusCode()).isEqualTo(200);
		assertThat(QuotaRefusals.code(call(aliceWithCiDeploy, toolCall(2, "echo")))).as("its own bucket is empty")
			.isEqualTo("rate_limited");

		HttpResponse<String> other = call(aliceCiWithDeploy, toolCall(3, "echo"));

		assertThat(other.statusCode()).as("the other principal's bucket is its own").isEqualTo(200);
		assertThat(QuotaRefusals.code(call(aliceCiWithDeploy, toolCall(4, "echo")))).isEqualTo("rate_limited");
		assertThat(toolCallsUpstream()).isEqualTo(2);
	}

	@Test
	void aTeamLimitIsSharedByThePrincipalsOfTheTeam() {
		limits("""
				      - name: team-calls
				        per: team
				        tokens: 3
				        period: 1m
				""");
		assertThat(call(this.alice, toolCall(1, "echo")).statusCode()).isEqualTo(200);
		assertThat(call(this.bob, toolCall(2, "echo")).statusCode()).isEqualTo(200);
		assertThat(call(this.alice, toolCall(3, "echo")).statusCode()).isEqualTo(200);

		assertThat(QuotaRefusals.code(call(this.bob, toolCall(4, "echo")))).isEqualTo("rate_limited");
		assertThat(call(this.erin, toolCall(5, "echo")).statusCode()).as("another team").isEqualTo(200);
	}

	@Test
	void aToolLimitIsConsumedOnlyByItsTools() {
		limits("""
				      - name: notes-writes
				        tools: ["notes_*"]
				        tokens: 1
				        period: 1m
				""");
		assertThat(call(this.alice, toolCall(1, "notes_write")).statusCode()).isEqualTo(200);
		for (int i = 0; i < 3; i++) {
			assertThat(call(this.alice, toolCall(2 + i, "echo")).statusCode()).isEqualTo(200);
		}

		HttpResponse<String> second = call(this.alice, toolCall(9, "notes_read"));

		assertThat(QuotaRefusals.code(second)).isEqualTo("rate_limited");
		assertThat(second.body()).contains("\"limit\":\"notes-writes\"");
	}

	@Test
	void ofTwoLimitsTheTighterRefusesAndARefusedCallCostsTheOtherNothing() {
		limits("""
				      - name: wide
				        tokens: 3
				        period: 1m
				      - name: tight
				        tools: [echo]
				        tokens: 2
				        period: 1m
				""");
		call(this.alice, toolCall(1, "echo"));
		call(this.alice, toolCall(2, "echo"));

		HttpResponse<String> third = call(this.alice, toolCall(3, "echo"));
		assertThat(QuotaRefusals.code(third)).isEqualTo("rate_limited");
		assertThat(third.body()).contains("\"limit\":\"tight\"");
		assertThat(call(this.alice, toolCall(4, "notes_read")).statusCode())
			.as("the refused echo took no token of the wide limit")
			.isEqualTo(200);
		assertThat(call(this.alice, toolCall(5, "notes_read")).body()).contains("\"limit\":\"wide\"");
	}

	@Test
	void aRequestsLimitCountsEveryRequest() {
		limits("""
				      - name: all-requests
				        counts: requests
				        tokens: 2
				        period: 1m
				""");
		call(this.alice, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{}}");
		call(this.alice, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");

		assertThat(QuotaRefusals.code(call(this.alice, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}")))
			.isEqualTo("rate_limited");
	}

	@Test
	void aKeyedCallALimitRefusesStoresNothingItsRetryRunsOnceAndReplaysNeverCount(CapturedOutput output)
			throws InterruptedException {
		limits("""
				      - name: one-per-two-seconds
				        tokens: 1
				        period: 2s
				""");
		String first = "quota-key-" + UUID.randomUUID();
		String second = "quota-key-" + UUID.randomUUID();
		assertThat(call(this.alice, toolCall(1, "echo"), "Idempotency-Key", first).statusCode()).isEqualTo(200);

		HttpResponse<String> refused = call(this.alice, toolCall(2, "echo"), "Idempotency-Key", second);
		assertThat(QuotaRefusals.code(refused)).isEqualTo("rate_limited");
		HttpResponse<String> replay = call(this.alice, toolCall(1, "echo"), "Idempotency-Key", first);
		assertThat(replay.headers().firstValue("Idempotency-Replayed")).as("a replay, even with the bucket empty")
			.hasValue("true");
		int calls = toolCallsUpstream();
		Thread.sleep(Duration.ofSeconds(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow()))
			.toMillis());

		HttpResponse<String> retried = call(this.alice, toolCall(2, "echo"), "Idempotency-Key", second);
		assertThat(retried.statusCode()).isEqualTo(200);
		assertThat(retried.headers().firstValue("Idempotency-Replayed")).as("the refusal stored nothing").isEmpty();
		assertThat(toolCallsUpstream()).isEqualTo(calls + 1);
		HttpResponse<String> again = call(this.alice, toolCall(2, "echo"), "Idempotency-Key", second);
		assertThat(again.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(toolCallsUpstream()).isEqualTo(calls + 1);
		assertThat(output.getOut()).contains("\"error_code\":\"rate_limited\"")
			.contains("\"reason\":\"one-per-two-seconds\"");
	}

	@Test
	void aReloadChangesALimitLiveAndAMalformedOneKeepsTheLastGoodPolicy() {
		limits("""
				      - name: reloaded
				        tokens: 1
				        period: 1m
				""");
		call(this.alice, toolCall(1, "echo"));
		assertThat(QuotaRefusals.code(call(this.alice, toolCall(2, "echo")))).isEqualTo("rate_limited");

		String uid = limits("""
				      - name: reloaded
				        tokens: 100
				        period: 1m
				""", currentUid());
		assertThat(uid).isNotNull();
		assertThat(call(this.alice, toolCall(3, "echo")).statusCode()).as("the larger bucket, live").isEqualTo(200);

		String malformed = policy.standard() + server(currentUid(), """
				      - name: reloaded
				        tokens: 0
				        period: 1m
				""");
		policy.write(malformed);
		this.policyReloader.reloadNow();

		int line = malformed.lines().toList().indexOf("      - name: reloaded") + 1;
		assertThat(this.livePolicy.lastReload().succeeded()).isFalse();
		assertThat(this.livePolicy.lastReload().error()).contains("line " + line)
			.contains("servers[7].limits[0]")
			.contains("tokens must be at least 1");
		assertThat(call(this.alice, toolCall(4, "echo")).statusCode()).as("the last good policy still serves")
			.isEqualTo(200);
	}

	@Test
	void explainListsTheLimitsACallWouldConsumeWithTheirTokensAndTakesNone() {
		limits("""
				      - name: calls-per-minute
				        tokens: 5
				        period: 1m
				      - name: every-request
				        counts: requests
				        per: team
				        tokens: 100
				        period: 1h
				      - name: notes-only
				        tools: ["notes_*"]
				        tokens: 1
				        period: 1m
				""");
		call(this.alice, toolCall(1, "echo"));
		call(this.alice, toolCall(2, "echo"));

		JsonNode first = explain("server=" + PATH + "&human=alice&agent=agent-1&team=blue&tool=echo");
		JsonNode again = explain("server=" + PATH + "&human=alice&agent=agent-1&team=blue&tool=echo");

		assertThat(first.get("allowed").asBoolean()).isTrue();
		assertThat(first.get("limits")).hasSize(2);
		JsonNode limit = first.get("limits").get(0).deepCopy();
		// Two of five tokens taken, one back every 12 s: the next within 12 s.
		assertThat(limit.get("nextTokenInMillis").asLong()).isBetween(1L, 12_000L);
		((tools.jackson.databind.node.ObjectNode) limit).remove("nextTokenInMillis");
		assertThat(limit.toString()).isEqualTo("{\"name\":\"calls-per-minute\",\"per\":\"principal\","
				+ "\"counts\":\"tool-calls\",\"tools\":[],\"tokens\":5,\"period\":60,\"burst\":5,\"remaining\":3}");
		assertThat(first.get("limits").get(1).get("name").asString()).isEqualTo("every-request");
		assertThat(first.get("limits").get(1).get("remaining").asLong()).isEqualTo(98);
		assertThat(again.get("limits").valueStream().map((each) -> each.get("remaining")).toList())
			.as("explain takes no token")
			.isEqualTo(first.get("limits").valueStream().map((each) -> each.get("remaining")).toList());
		assertThat(explain("server=" + PATH + "&human=alice&agent=agent-1&team=blue").get("limits"))
			.as("a request other than tools/call: the requests limit only")
			.hasSize(1);
	}

	private String currentUid;

	private String currentUid() {
		return this.currentUid;
	}

	/** Puts a server with {@code limits} (YAML list items) in the policy, a fresh UID. */
	private void limits(String limits) {
		limits(limits, "uid-limited-" + servers.incrementAndGet() + "-" + UUID.randomUUID());
	}

	private String limits(String limits, String uid) {
		this.currentUid = uid;
		policy.write(policy.standard() + server(uid, limits));
		this.policyReloader.reloadNow();
		assertThat(this.livePolicy.lastReload().succeeded()).as(this.livePolicy.lastReload().error()).isTrue();
		return uid;
	}

	private static String server(String uid, String limits) {
		return """
				  - namespace: test
				    name: limited
				    uid: %s
				    upstream: %s
				    path: %s
				    grants:
				      - principal: { team: blue }
				        tools: [echo, "notes_*"]
				      - principal: { team: green }
				        tools: [echo]
				    limits:
				""".formatted(uid, upstream.url("/limited"), PATH) + limits;
	}

	private HttpResponse<String> call(String token, String json, String... headers) {
		return post(PATH, token, json, headers);
	}

	private static int toolCallsUpstream() {
		return (int) upstream.received()
			.stream()
			.filter((received) -> received.uri().startsWith("/limited") && received.bodyText().contains("tools/call"))
			.count();
	}

}
