package io.github.mcpgateway.observability;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The chart's alert rules pass {@code promtool check rules}, and each alert fires on a
 * bad series and stays quiet on a good one ({@code promtool test rules} on
 * {@code src/test/promtool/rules-test.yaml}). Skipped where promtool is not installed
 * (Debian package {@code prometheus}; {@code .ci/run} installs it); the metric names the
 * rules read are checked without it, by {@link DashboardAndAlertMetricsIntegrationTest}.
 */
class PromtoolRulesTest {

	@Test
	void rulesAreValid() throws Exception {
		Result result = promtool(Path.of("."), "check", "rules", MonitoringQueries.RULES.toString());

		assertThat(result.status()).as(result.output()).isZero();
		assertThat(result.output()).contains("SUCCESS: 10 rules found");
	}

	@Test
	void everyAlertFiresAndStaysQuietAsItsUnitTestsSay() throws Exception {
		Result result = promtool(Path.of("src/test/promtool"), "test", "rules", "rules-test.yaml");

		assertThat(result.status()).as(result.output()).isZero();
		assertThat(result.output()).contains("SUCCESS");
	}

	private static Result promtool(Path directory, String... args) throws IOException, InterruptedException {
		assumeTrue(onPath(), "promtool is not installed (Debian package prometheus)");
		List<String> command = new java.util.ArrayList<>(List.of("promtool"));
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		return new Result(process.exitValue(), output);
	}

	private static boolean onPath() {
		for (String directory : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
			if (Path.of(directory, "promtool").toFile().canExecute()) {
				return true;
			}
		}
		return false;
	}

	private record Result(int status, String output) {
	}

}
