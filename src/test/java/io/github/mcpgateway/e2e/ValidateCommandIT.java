package io.github.mcpgateway.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code java -jar mcp-gateway.jar validate ...} as the README and operations.md show it:
 * the packaged jar's launcher hands the arguments to the command, which exits 0 on the
 * documented examples, 1 on a broken file with the reload's message, 2 on a usage error,
 * and returns without starting a server.
 */
class ValidateCommandIT {

	@TempDir
	Path dir;

	@Test
	void documentedExamplesPass() throws Exception {
		Run run = validate("--policy", "docs/examples/policy.yaml", "--revocations", "docs/examples/revocations.json",
				"--config", "docs/examples/application.yaml");

		assertThat(run.status()).as(run.output()).isZero();
		assertThat(run.output()).contains("ok     config docs/examples/application.yaml")
			.contains("ok     policy docs/examples/policy.yaml")
			.contains("ok     revocations docs/examples/revocations.json")
			.doesNotContain("Tomcat")
			.doesNotContain("Started");
	}

	@Test
	void brokenPolicyFailsWithFileLineAndField() throws Exception {
		Path policy = Files.writeString(this.dir.resolve("policy.yaml"), """
				servers:
				  - namespace: a
				    name: b
				    upstream: http://x/mcp
				    path: /mcp/a/b
				    grants: [{tools: []}]
				""");

		Run run = validate("--policy", policy.toString());

		assertThat(run.status()).isEqualTo(1);
		assertThat(run.output()).contains("error  policy file [" + policy.toAbsolutePath()
				+ "] line 6 (servers[0].grants[0]): a grant must list at least one tool");
	}

	@Test
	void usageErrorExitsTwo() throws Exception {
		Run run = validate("--policy");

		assertThat(run.status()).isEqualTo(2);
		assertThat(run.output()).contains("usage: java -jar mcp-gateway.jar validate");
	}

	private static Run validate(String... args) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
						System.getProperty("gateway.jar"), "validate"));
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("validate returns by itself").isTrue();
		return new Run(process.exitValue(), output);
	}

	private record Run(int status, String output) {
	}

}
