package io.github.mcpgateway.idempotency;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.mcpgateway.support.Replies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@ExtendWith(OutputCaptureExtension.class)
class IdempotencyObservabilityIntegrationTest extends IdempotencyIntegrationTest {

	@Autowired
	MeterRegistry meterRegistry;

	@Test
	void auditAndMetricsCarryTheOutcomeAndAKeyHashButNeverTheKeyOrPayload(CapturedOutput output) {
		upstream.reply(Replies.jsonResult("{\"content\":[{\"type\":\"text\",\"text\":\"secret-result-text\"}]}"));
		String key = "raw-key-" + uniqueKey();
		double replaysBefore = count("replay");

		keyedCall(key);
		keyedCall(key);
		keyed("/mcp/test/echo", this.token, toolCall(1, "notes_create"), key);

		await().atMost(Duration.ofSeconds(5)).until(() -> auditLines(output).size() >= 3);
		List<String> audit = auditLines(output);
		assertThat(audit).anySatisfy((line) -> assertThat(line).contains("\"idempotency\":\"first\"")
			.containsPattern("\"idempotency_key_hash\":\"[0-9a-f]{16}\""));
		assertThat(audit).anySatisfy((line) -> assertThat(line).contains("\"idempotency\":\"replay\""));
		assertThat(audit).anySatisfy((line) -> assertThat(line).contains("\"idempotency\":\"conflict\"")
			.contains("\"error_code\":\"idempotency_key_conflict\""));
		assertThat(count("replay")).isEqualTo(replaysBefore + 1);
		String scrape = send(HttpRequest.newBuilder(uri("/actuator/prometheus")).build()).body();
		assertThat(scrape).contains("mcp_gateway_idempotency_total{namespace=\"test\",outcome=\"replay\"");
		assertThat(output.getAll() + scrape).doesNotContain(key)
			.doesNotContain("secret-argument")
			.doesNotContain("secret-result-text")
			.doesNotContain(this.token);
	}

	@Test
	void theUpstreamNeverSeesTheKey() {
		keyedCall(uniqueKey());

		assertThat(upstream.received()).singleElement()
			.satisfies((received) -> assertThat(received.header("Idempotency-Key")).isNull());
	}

	private double count(String outcome) {
		var counter = this.meterRegistry.find("mcp.gateway.idempotency")
			.tags("server", "echo", "outcome", outcome)
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	private List<String> auditLines(CapturedOutput output) {
		return output.getOut()
			.lines()
			.filter((line) -> line.contains("mcp.audit") && line.contains("\"idempotency\""))
			.toList();
	}

}
