package io.github.mcpgateway.policy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import io.github.mcpgateway.support.GatewayIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Reloads through the real 5 s poll: each change must take effect within 6 s, without a
 * restart.
 */
class PolicyReloadIntegrationTest extends GatewayIntegrationTest {

	@Autowired
	MeterRegistry meterRegistry;

	@Test
	void removedGrantIsDeniedWithinSixSeconds() {
		assertThat(post("/mcp/test/echo", validToken(), toolCall(1, "echo")).statusCode()).isEqualTo(200);

		policy.write(policy.standard().replace("tools: [echo, \"notes_*\"]", "tools: [\"notes_*\"]"));

		long start = System.nanoTime();
		await().atMost(Duration.ofSeconds(6))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> post("/mcp/test/echo", validToken(), toolCall(2, "echo")).body().contains("tool_not_granted"));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(6));
	}

	@Test
	void addedServerAnswersOnItsPathWithoutRestart() {
		assertThat(post("/mcp/test/added", validToken(), toolCall(1, "echo")).statusCode()).isEqualTo(404);

		policy.write(policy.standard() + """
				  - namespace: test
				    name: added
				    uid: uid-added
				    upstream: %s
				    path: /mcp/test/added
				    grants:
				      - tools: ["*"]
				""".formatted(upstream.url("/added")));

		await().atMost(Duration.ofSeconds(6))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> post("/mcp/test/added", validToken(), toolCall(2, "echo")).statusCode() == 200);
		assertThat(upstream.received()).last().satisfies((received) -> assertThat(received.uri()).isEqualTo("/added"));
	}

	@Test
	void removedServerPathAnswersNotFound() {
		policy.write(policy.standard().replace("path: /mcp/test/flaky", "path: /mcp/test/flaky-moved"));
		this.policyReloader.reloadNow();

		assertThat(post("/mcp/test/flaky", validToken(), toolCall(1, "echo")).statusCode()).isEqualTo(404);
		assertThat(upstream.count()).isZero();
	}

	@Test
	void brokenFileKeepsLastGoodPolicyAndIsReportedInMetricAndHealth() {
		double failuresBefore = failures();
		policy.write(policy.standard().replace("upstream: " + upstream.url("") + "/mcp", "upstream: not a url"));

		this.policyReloader.reloadNow();

		assertThat(failures()).isEqualTo(failuresBefore + 1);
		assertThat(this.meterRegistry.get("mcp.gateway.policy.valid").gauge().value()).isZero();
		assertThat(post("/mcp/test/echo", validToken(), toolCall(1, "echo")).statusCode()).isEqualTo(200);
		HttpResponse<String> health = send(HttpRequest.newBuilder(uri("/actuator/health")).build());
		assertThat(health.body()).contains("\"lastReload\":\"failed\"")
			.contains("line 5 (servers[0].upstream): invalid value \\\"not a url\\\"");
	}

	@Test
	void aCredentialInARejectedUpstreamUrlNeverReachesHealth() {
		String original = "upstream: " + upstream.url("") + "/mcp";
		policy.write(policy.standard().replace(original, "upstream: 'http://user:s3cr3t-pass@bad host/mcp'"));
		this.policyReloader.reloadNow();

		String unparsable = send(HttpRequest.newBuilder(uri("/actuator/health")).build()).body();

		policy.write(policy.standard().replace(original, "upstream: 'http://user:s3cr3t-pass@127.0.0.1:1/mcp'"));
		this.policyReloader.reloadNow();

		String withUserInfo = send(HttpRequest.newBuilder(uri("/actuator/health")).build()).body();

		assertThat(unparsable).contains("\"lastReload\":\"failed\"")
			.contains("(servers[0].upstream): invalid value \\\"http://[redacted]@bad host/mcp\\\"")
			.doesNotContain("s3cr3t");
		assertThat(withUserInfo).as("a parsable URL with user information is refused, and not quoted")
			.contains("(servers[0]): upstream must not carry user information")
			.doesNotContain("s3cr3t");
		assertThat(post("/mcp/test/echo", validToken(), toolCall(1, "echo")).statusCode()).isEqualTo(200);
	}

	@Test
	void brokenFileIsReportedOncePerDistinctContent() {
		double failuresBefore = failures();
		policy.write("servers: [ {");

		this.policyReloader.reloadNow();
		this.policyReloader.reloadNow();

		assertThat(failures()).isEqualTo(failuresBefore + 1);
	}

	private double failures() {
		return this.meterRegistry.get("mcp.gateway.policy.reloads").tag("result", "failed").counter().count();
	}

}
