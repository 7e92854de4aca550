package io.github.mcpgateway.policy;

import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.util.unit.DataSize;

import io.github.mcpgateway.support.StdioTestPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The {@code stdio} entry of a server in the policy file (ADR 0023): what it reads, its
 * defaults, and the messages of what it refuses.
 */
class StdioUpstreamPolicyTest {

	@Test
	void aStdioServerReadsItsCommandEnvironmentAndCapsAndNamesItselfAsItsUpstream() {
		McpServerPolicy server = server("""
				stdio:
				      command: [node, /opt/server/index.js, "--root=/srv data"]
				      working-directory: /srv
				      environment:
				        PLAIN: literal value
				        EXPLICIT: { value: "also literal" }
				        TOKEN: { from-file: /run/secrets/token }
				        REGION: { from-env: GATEWAY_REGION }
				      idle-timeout: 2m
				      start-timeout: 10s
				      max-processes: 5
				      max-processes-per-principal: 2
				""");

		StdioUpstream stdio = server.stdio();
		assertThat(server.runsStdio()).isTrue();
		assertThat(server.upstream()).isEqualTo(URI.create("stdio:test/local"));
		assertThat(stdio.command()).containsExactly("node", "/opt/server/index.js", "--root=/srv data");
		assertThat(stdio.workingDirectory()).isEqualTo("/srv");
		assertThat(stdio.environment()).containsExactly(
				org.assertj.core.api.Assertions.entry("PLAIN", StdioUpstream.EnvironmentValue.literal("literal value")),
				org.assertj.core.api.Assertions.entry("EXPLICIT",
						StdioUpstream.EnvironmentValue.literal("also literal")),
				org.assertj.core.api.Assertions.entry("TOKEN",
						new StdioUpstream.EnvironmentValue(null, null, "/run/secrets/token")),
				org.assertj.core.api.Assertions.entry("REGION",
						new StdioUpstream.EnvironmentValue(null, "GATEWAY_REGION", null)));
		assertThat(stdio.idleTimeout()).isEqualTo(Duration.ofMinutes(2));
		assertThat(stdio.startTimeout()).isEqualTo(Duration.ofSeconds(10));
		assertThat(stdio.maxProcesses()).isEqualTo(5);
		assertThat(stdio.maxProcessesPerPrincipal()).isEqualTo(2);
	}

	@Test
	void omittedFieldsTakeTheirDefaultsAndASecretIsNeverShown() {
		StdioUpstream stdio = server("""
				stdio:
				      command: [cat]
				      environment:
				        TOKEN: { from-file: /run/secrets/token }
				""").stdio();

		assertThat(stdio.workingDirectory()).isNull();
		assertThat(stdio.idleTimeout()).isEqualTo(StdioUpstream.DEFAULT_IDLE_TIMEOUT);
		assertThat(stdio.startTimeout()).isEqualTo(StdioUpstream.DEFAULT_START_TIMEOUT);
		assertThat(stdio.maxProcesses()).isEqualTo(StdioUpstream.DEFAULT_MAX_PROCESSES);
		assertThat(stdio.maxProcessesPerPrincipal()).isEqualTo(StdioUpstream.DEFAULT_MAX_PROCESSES_PER_PRINCIPAL);
		assertThat(StdioUpstream.EnvironmentValue.literal("s3cret")).hasToString("value");
	}

	@Test
	void aServerWithBothAnUpstreamAndACommandIsRefused() {
		assertRefused("""
				upstream: http://127.0.0.1:1/mcp
				    stdio:
				      command: [cat]
				""", "a server has an upstream URL or a stdio command, not both");
	}

	@Test
	void aServerWithNeitherIsRefusedNamingBoth() {
		assertRefused("identity: oauth", "upstream is required (an http or https URL), or stdio (a command)");
	}

	@Test
	void theCommandIsAListWhoseExecutableIsAnAbsolutePathOrAName() {
		assertRefused("stdio:\n      command: []", "stdio.command must list the executable and its arguments");
		assertRefused("stdio:\n      command: \"node server.js\"", "expected a list");
		assertRefused("stdio:\n      command: [bin/server]",
				"stdio.command[0] must be an absolute path, or a name found on the gateway's PATH");
		assertRefused("stdio:\n      command: [\"\"]", "stdio.command[0] must not be empty");
	}

	@Test
	void environmentNamesAndSourcesAreChecked() {
		assertRefused("stdio:\n      command: [cat]\n      environment:\n        \"BAD-NAME\": x",
				"BAD-NAME is not a variable name");
		assertRefused("stdio:\n      command: [cat]\n      environment:\n        A: { from-env: X, from-file: /x }",
				"an environment value is a string, or one of {value}, {from-env} and {from-file}");
		assertRefused("stdio:\n      command: [cat]\n      environment:\n        A: { from-file: relative }",
				"from-file must be an absolute path");
		assertRefused("stdio:\n      command: [cat]\n      environment:\n        A: { from-env: \"NOT A NAME\" }",
				"from-env must name a variable");
	}

	@Test
	void capsAndTimeoutsMustBePositiveAndThePrincipalsCapWithinTheServers() {
		assertRefused("stdio:\n      command: [cat]\n      max-processes: 0", "stdio.max-processes must be at least 1");
		assertRefused("stdio:\n      command: [cat]\n      max-processes: 2\n      max-processes-per-principal: 3",
				"stdio.max-processes-per-principal must not exceed max-processes");
		assertRefused("stdio:\n      command: [cat]\n      idle-timeout: 0s", "stdio.idle-timeout must be positive");
		assertRefused("stdio:\n      command: [cat]\n      working-directory: srv",
				"stdio.working-directory must be an absolute path");
		assertThat(server("stdio:\n      command: [cat]\n      max-processes: 2").stdio().maxProcessesPerPrincipal())
			.isEqualTo(2);
	}

	@Test
	void ulimitReadsCountsDurationsAndSizesAndSaysWhatASizeIs() {
		StdioUpstream.Ulimit ulimit = server("""
				stdio:
				      command: [cat]
				      process: shared
				      ulimit:
				        open-files: 64
				        cpu-time: 10m
				        address-space: 4GB
				        file-size: 512MB
				""").stdio().ulimit();

		assertThat(ulimit).isEqualTo(new StdioUpstream.Ulimit(64, Duration.ofMinutes(10), DataSize.ofGigabytes(4),
				DataSize.ofMegabytes(512)));
		assertThat(server("stdio:\n      command: [cat]").stdio().ulimit().isEmpty()).isTrue();
		assertRefused("stdio:\n      command: [cat]\n      ulimit:\n        address-space: lots",
				"\"lots\" is not a size such as 512MB or 1GB");
		assertRefused("stdio:\n      command: [cat]\n      ulimit:\n        open-files: 0",
				"ulimit.open-files must be at least 1");
		assertRefused("stdio:\n      command: [cat]\n      process: pooled", "invalid value \"pooled\"");
	}

	@Test
	void upstreamAuthDoesNotApplyToAStdioServer() {
		assertRefused("""
				stdio:
				      command: [cat]
				    upstream-auth:
				      mode: client-credentials
				      client: x
				""", "a stdio server gets its credentials from stdio.environment");
	}

	private static McpServerPolicy server(String entry) {
		return StdioTestPolicy.server(entry);
	}

	private static Policy policy(String entry) {
		return StdioTestPolicy.parse(entry);
	}

	private static void assertRefused(String entry, String message) {
		assertThatExceptionOfType(PolicyException.class).isThrownBy(() -> policy(entry))
			.withMessageContaining(message)
			.withMessageStartingWith("policy.yaml line ");
	}

}
