package io.github.mcpgateway.audit;

import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.Replies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@ExtendWith(OutputCaptureExtension.class)
class AuditIntegrationTest extends GatewayIntegrationTest {

	@Autowired
	private MeterRegistry meterRegistry;

	@Test
	void allowedAndDeniedCallsAreAuditedWithoutTokenArgumentsOrResult(CapturedOutput output) {
		upstream.reply(Replies.jsonResult("{\"content\":[{\"type\":\"text\",\"text\":\"secret-result-text\"}]}"));
		String token = validToken();

		assertThat(post("/mcp/test/echo", token, toolCall(101, "echo")).statusCode()).isEqualTo(200);
		assertThat(post("/mcp/test/echo", token, toolCall(102, "admin_reset")).statusCode()).isEqualTo(200);

		// The audit event is written once the response is complete, just after the client
		// got it.
		await().atMost(Duration.ofSeconds(5)).until(() -> auditLines(output).size() >= 2);
		List<String> audit = auditLines(output);
		assertThat(audit).anySatisfy((line) -> assertThat(line).contains("\"human\":\"alice\"")
			.contains("\"agent\":\"agent-1\"")
			.contains("\"team\":\"blue\"")
			.contains("\"server_uid\":\"uid-echo\"")
			.contains("\"method\":\"tools/call\"")
			.contains("\"tool\":\"echo\"")
			.contains("\"decision\":\"allowed\"")
			.contains("\"status\":200")
			.contains("\"dispatched\":true"));
		assertThat(audit).anySatisfy((line) -> assertThat(line).contains("\"tool\":\"admin_reset\"")
			.contains("\"decision\":\"denied\"")
			.contains("\"error_code\":\"tool_not_granted\"")
			.contains("\"status\":200")
			.contains("\"dispatched\":false"));
		assertThat(output.getAll()).doesNotContain(token)
			.doesNotContain(token.substring(token.lastIndexOf('.') + 1))
			.doesNotContain("secret-argument")
			.doesNotContain("secret-result-text");
	}

	@Test
	void callerChosenStringsReachTheAuditLineAndNoMetricTagBounded(CapturedOutput output) {
		String token = validToken();
		String hugeTool = "t".repeat(600_000);
		String otherHugeTool = "t".repeat(599_999) + "u";
		String hugeMethod = "m".repeat(200_000);
		String unknownPath = "/mcp/" + "p".repeat(4_000);

		assertThat(post("/mcp/test/echo", token, toolCall(201, hugeTool)).statusCode()).isEqualTo(200);
		assertThat(post("/mcp/test/echo", token, toolCall(202, otherHugeTool)).statusCode()).isEqualTo(200);
		post("/mcp/test/echo", token, jsonRpc(203, hugeMethod, "{}"));
		assertThat(post(unknownPath, token, toolCall(204, "echo")).statusCode()).isEqualTo(404);

		await().atMost(Duration.ofSeconds(5))
			.until(() -> auditLines(output).stream().filter((line) -> line.contains("\"tool\":\"ttt")).count() >= 2
					&& auditLines(output).stream().anyMatch((line) -> line.contains("\"method\":\"mmm")));
		List<String> huge = auditLines(output).stream()
			.filter((line) -> line.contains("\"tool\":\"ttt") || line.contains("\"method\":\"mmm"))
			.toList();
		assertThat(huge).hasSize(3).allSatisfy((line) -> assertThat(line).hasSizeLessThan(1_500));
		assertThat(huge).anySatisfy((line) -> assertThat(line)
			.contains("\"tool\":\"" + "t".repeat(96) + "...#" + sha256Prefix(hugeTool) + "\""));
		assertThat(huge).as("two long names that differ stay apart")
			.anySatisfy((line) -> assertThat(line).contains("...#" + sha256Prefix(otherHugeTool) + "\""));
		assertThat(huge).anySatisfy((line) -> assertThat(line)
			.contains("\"method\":\"" + "m".repeat(96) + "...#" + sha256Prefix(hugeMethod) + "\""));
		assertThat(this.meterRegistry.getMeters())
			.allSatisfy((meter) -> assertThat(meter.getId().getTags()).as(meter.getId().getName())
				.allSatisfy((tag) -> assertThat(tag.getValue()).hasSizeLessThanOrEqualTo(128)
					.doesNotContain("tttt")
					.doesNotContain("mmmm")
					.doesNotContain("pppp")));
	}

	private static String sha256Prefix(String value) {
		try {
			return java.util.HexFormat.of()
				.formatHex(java.security.MessageDigest.getInstance("SHA-256")
					.digest(value.getBytes(java.nio.charset.StandardCharsets.UTF_8)), 0, 8);
		}
		catch (java.security.NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static List<String> auditLines(CapturedOutput output) {
		return output.getOut().lines().filter((line) -> line.contains("mcp.audit")).toList();
	}

}
