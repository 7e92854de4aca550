package io.github.mcpgateway.observability;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import io.github.mcpgateway.support.GatewayReplica;
import io.github.mcpgateway.support.RedisServer;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestHttp;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestUpstream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every metric a panel of the chart's Grafana dashboard or one of its alert rules reads
 * is in a running gateway's {@code /actuator/prometheus}, after a scripted sequence of
 * calls (allowed, denied, keyed, replayed, tombstoned) on the Redis stores: no panel is
 * empty and no alert silent because of a misspelt or missing metric.
 */
class DashboardAndAlertMetricsIntegrationTest {

	private static final RedisServer redis = RedisServer.start();

	private static final TestUpstream upstream = TestUpstream.start();

	private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private static ConfigurableApplicationContext gateway;

	private final String token = TestJwts.jwt().human("dana-" + UUID.randomUUID()).sign();

	@BeforeAll
	static void start() throws IOException {
		Path policy = GatewayReplica.policy(upstream, "echo, \"notes_*\", limited");
		Files.writeString(policy, Files.readString(policy) + """
				      - name: guarded
				        tools: [guarded]
				        when: arguments.amount < 10
				    limits:
				      - name: one-a-minute
				        tools: [limited]
				        tokens: 1
				        period: 1m
				""");
		Path revocations = Files.createTempFile("revocations", ".json");
		Files.writeString(revocations, "{}");
		gateway = GatewayReplica.start(policy,
				Map.of("gateway.idempotency.store", "redis", "gateway.session.store", "redis", "gateway.quota.store",
						"redis", "spring.data.redis.host", "127.0.0.1", "spring.data.redis.port",
						Integer.toString(redis.port()), "gateway.revocation.source", revocations.toString()));
	}

	@AfterAll
	static void stop() {
		gateway.close();
		redis.close();
	}

	@Test
	void everyMetricOfTheDashboardAndTheAlertsIsScraped() throws IOException {
		upstream.reply(Replies.jsonResult("{\"content\":[]}"));
		assertThat(call(null, "echo").statusCode()).as("allowed").isEqualTo(200);
		assertThat(call(null, "admin_reset").body()).as("denied").contains("tool_not_granted");
		String key = UUID.randomUUID().toString();
		assertThat(call(key, "notes_create").statusCode()).as("keyed").isEqualTo(200);
		HttpResponse<String> replay = call(key, "notes_create");
		assertThat(replay.headers().firstValue("Idempotency-Replayed")).as("replayed").hasValue("true");
		upstream.reply(Replies.raw(500, "application/json", "{}"));
		String tombstoned = UUID.randomUUID().toString();
		call(tombstoned, "notes_delete");
		assertThat(call(tombstoned, "notes_delete").body()).as("tombstoned").contains("idempotency_outcome_unknown");
		upstream.reply(Replies.jsonResult("{\"content\":[]}"));
		call(null, "limited");
		assertThat(call(null, "limited").body()).as("limited").contains("rate_limited");
		assertThat(call(null, "guarded").body()).as("a condition's error").contains("tool_arguments_denied");

		String scrape = TestHttp.send(http, GatewayReplica.get(gateway, "/actuator/prometheus")).body();

		Map<String, Set<String>> missing = new TreeMap<>();
		Set<String> used = new TreeSet<>();
		for (String expression : MonitoringQueries.expressions()) {
			for (String name : MonitoringQueries.metricNames(expression)) {
				used.add(name);
				if (!scraped(scrape, name)) {
					missing.computeIfAbsent(name, (n) -> new TreeSet<>()).add(expression);
				}
			}
		}
		assertThat(used).as("metric names the dashboard and alerts read").hasSizeGreaterThanOrEqualTo(20);
		assertThat(missing).as("metrics read by a panel or an alert but not in the scrape").isEmpty();
		assertThat(scraped(scrape, "mcp_gateway_requets_total")).as("a misspelt name is caught").isFalse();
		List<String> help = List.of(scrape.split("\n"))
			.stream()
			.filter((line) -> line.startsWith("# HELP mcp_gateway_"))
			.toList();
		assertThat(help).as("the gateway's metric families").hasSizeGreaterThanOrEqualTo(30);
		assertThat(help).as("every family of the gateway has its HELP text")
			.allSatisfy((line) -> assertThat(line.replaceFirst("^# HELP \\S+", "")).as(line).isNotBlank());
	}

	@Test
	void metricNamesAreReadFromSelectorsOnly() {
		assertThat(MonitoringQueries.metricNames(
				"sum by (server) (rate(mcp_gateway_requests_total{decision!=\"allowed\", status=~\"5..\"}[5m]))"
						+ " / sum by (server) (rate(mcp_gateway_requests_total[$__rate_interval])) > 0.05"))
			.containsExactly("mcp_gateway_requests_total");
		assertThat(MonitoringQueries.metricNames("max by (instance) (a_b) > 30 and on (instance) c_d == 1"))
			.containsExactly("a_b", "c_d");
	}

	private HttpResponse<String> call(String key, String tool) {
		return TestHttp.send(http,
				GatewayReplica.post(gateway, this.token, null, key,
						"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
								+ "\",\"arguments\":{}}}"));
	}

	/** Whether the exposition has a sample of {@code name}. */
	private static boolean scraped(String scrape, String name) {
		return List.of(scrape.split("\n"))
			.stream()
			.anyMatch((line) -> line.startsWith(name + "{") || line.startsWith(name + " "));
	}

}
