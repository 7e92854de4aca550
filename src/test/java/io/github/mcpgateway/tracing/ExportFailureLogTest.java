package io.github.mcpgateway.tracing;

import java.net.ConnectException;
import java.time.Duration;
import java.util.List;

import io.opentelemetry.sdk.common.CompletableResultCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.mcpgateway.support.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failing exporter: one line at the first failure, then at most one a minute with the
 * count, and one when exports work again.
 */
@ExtendWith(OutputCaptureExtension.class)
class ExportFailureLogTest {

	private final MutableClock clock = new MutableClock();

	private final ExportFailureLog log = new ExportFailureLog("Span export", "span(s)", this.clock);

	@Test
	void failuresAreLoggedOnceAMinuteWithTheirCountAndWithoutCredentials(CapturedOutput output) {
		for (int i = 0; i < 5; i++) {
			fail();
			this.clock.advance(Duration.ofSeconds(10));
		}
		this.clock.advance(Duration.ofSeconds(20));
		fail();
		this.log.watch(CompletableResultCode.ofSuccess(), 1);

		List<String> lines = output.getOut().lines().filter((line) -> line.contains("ExportFailureLog")).toList();
		assertThat(lines).hasSize(3);
		assertThat(lines.get(0)).contains("WARN")
			.contains(
					"Span export failed, 2 span(s) dropped (ConnectException: refused by http://[redacted]@collector/)");
		assertThat(lines.get(1)).contains("WARN").contains("5 span export(s) failed in the last 1 minute(s)");
		assertThat(lines.get(2)).contains("INFO").contains("Span export works again after 6 failed export(s)");
		assertThat(output.getOut()).doesNotContain("s3cr3t");
	}

	private void fail() {
		this.log.watch(CompletableResultCode.ofExceptionalFailure(
				new RuntimeException("wrapped", new ConnectException("refused by http://user:s3cr3t@collector/"))), 2);
	}

}
