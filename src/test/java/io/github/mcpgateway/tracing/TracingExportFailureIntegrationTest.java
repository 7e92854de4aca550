package io.github.mcpgateway.tracing;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tracing on and no collector listening: every batch fails to export, and the log has one
 * WARN line for it, without a stack trace, where OpenTelemetry's exporter wrote an ERROR
 * with its stack trace per failed batch.
 */
@ExtendWith(OutputCaptureExtension.class)
@TestPropertySource(properties = { "gateway.tracing.enabled=true", "management.tracing.sampling.probability=1.0",
		"management.opentelemetry.tracing.export.schedule-delay=50ms" })
class TracingExportFailureIntegrationTest extends GatewayIntegrationTest {

	@DynamicPropertySource
	static void exportToNothing(DynamicPropertyRegistry registry) {
		registry.add("management.opentelemetry.tracing.export.otlp.endpoint",
				() -> "http://127.0.0.1:" + closedPort() + "/v1/traces");
	}

	@Test
	void failingExportsGiveOneWarnLineWithoutAStackTrace(CapturedOutput output) throws InterruptedException {
		String token = TestJwts.jwt().human("alice").sign();
		for (int i = 0; i < 5; i++) {
			assertThat(post("/mcp/test/echo", token, toolCall(i, "echo")).statusCode()).isEqualTo(200);
			// Each call in a batch of its own: five failed exports.
			Thread.sleep(300);
		}

		await().atMost(Duration.ofSeconds(10)).until(() -> output.getOut().contains("Span export failed"));
		List<String> exportLines = Arrays.stream(output.getOut().split("\n"))
			.filter((line) -> line.contains("ExportFailureLog") || line.contains("io.opentelemetry")
					|| line.contains("Failed to export"))
			.toList();

		assertThat(exportLines).as("one line for the five failed exports").hasSize(1);
		assertThat(exportLines.get(0)).contains("WARN")
			.contains("Span export failed")
			.contains("ConnectException")
			.contains("at most 1 minute(s)");
		assertThat(output.getOut()).doesNotContain("Failed to export").doesNotContain("at io.opentelemetry");
	}

	private static int closedPort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

}
