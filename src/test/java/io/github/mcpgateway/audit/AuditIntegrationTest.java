package io.github.mcpgateway.audit;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.Replies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@ExtendWith(OutputCaptureExtension.class)
class AuditIntegrationTest extends GatewayIntegrationTest {

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

	private static List<String> auditLines(CapturedOutput output) {
		return output.getOut().lines().filter((line) -> line.contains("mcp.audit")).toList();
	}

}
