package io.github.mcpgateway.stdio;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.util.unit.DataSize;

import io.github.mcpgateway.policy.PolicyException;
import io.github.mcpgateway.policy.StdioUpstream;
import io.github.mcpgateway.support.StdioTestPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * A stdio server's command checked against this machine when the policy is loaded
 * ({@link StdioExecutables}), and its environment read when a process starts
 * ({@link StdioCommands}).
 */
class StdioExecutablesTest {

	@TempDir
	Path directory;

	@Test
	void anExecutableFileByPathOrOnTheGatewaysPathIsAccepted() throws IOException {
		Path server = executable("server");

		load("[" + server + "]", "PATH", "/nonexistent");
		load("[server]", "PATH", "/nonexistent:" + this.directory);
	}

	@Test
	void aMissingOrNonExecutableFileOrDirectoryMakesThePolicyInvalidAtItsLine() throws IOException {
		Path plain = Files.writeString(this.directory.resolve("plain"), "not a program");

		assertThatExceptionOfType(PolicyException.class).isThrownBy(() -> load("[" + plain + "]", "PATH", "/bin"))
			.withMessageContaining(
					"policy.yaml line 7 (servers[0].stdio.command): " + plain + " is not an executable file");
		assertThatExceptionOfType(PolicyException.class).isThrownBy(() -> load("[no-such-server]", "PATH", "/bin"))
			.withMessageContaining("no-such-server is not an executable file on the gateway's PATH (/bin)");
		assertThatExceptionOfType(PolicyException.class).isThrownBy(
				() -> load("[" + executable("server") + "]\n      working-directory: /nonexistent/dir", "PATH", "/bin"))
			.withMessageContaining("(servers[0].stdio.working-directory): /nonexistent/dir is not a directory");
	}

	@Test
	void environmentValuesAreReadWhenAProcessStartsAndAFailureNamesTheVariableNotAValue() throws Exception {
		Path secret = Files.writeString(this.directory.resolve("secret"), "s3cret\n");
		StdioCommands commands = new StdioCommands(Map.of("GATEWAY_REGION", "eu-west")::get, this.directory,
				StdioUpstream.Ulimit.NONE);
		StdioUpstream stdio = new StdioUpstream(List.of("cat"), null,
				Map.of("TOKEN", new StdioUpstream.EnvironmentValue(null, null, secret.toString()), "REGION",
						new StdioUpstream.EnvironmentValue(null, "GATEWAY_REGION", null), "PLAIN",
						StdioUpstream.EnvironmentValue.literal("x")),
				null, null, null, null, null, null);

		StdioCommand command = commands.command(stdio);

		assertThat(command.environment()).containsOnly(Map.entry("TOKEN", "s3cret"), Map.entry("REGION", "eu-west"),
				Map.entry("PLAIN", "x"));
		assertThat(command.workingDirectory()).isEqualTo(this.directory);
		Files.writeString(secret, "rotated");
		assertThat(commands.command(stdio).environment()).containsEntry("TOKEN", "rotated");
		StdioUpstream unset = new StdioUpstream(List.of("cat"), null,
				Map.of("KEY", new StdioUpstream.EnvironmentValue(null, "UNSET_VARIABLE", null)), null, null, null, null,
				null, null);
		assertThatIOException().isThrownBy(() -> commands.command(unset))
			.withMessage("stdio.environment.KEY: the gateway's variable UNSET_VARIABLE is not set");
		Files.delete(secret);
		assertThatIOException().isThrownBy(() -> commands.command(stdio))
			.withMessageContaining("stdio.environment.TOKEN: " + secret)
			.withMessageNotContaining("rotated");
	}

	@Test
	void limitsRunTheCommandUnderPrlimitWithoutAShellAndThePolicysOwnWinOverTheDefaults() throws Exception {
		StdioCommands commands = new StdioCommands(Map.of("PATH", "/usr/bin:/bin")::get, this.directory,
				new StdioUpstream.Ulimit(1024, Duration.ofMinutes(10), null, DataSize.ofGigabytes(1)));
		StdioUpstream stdio = new StdioUpstream(List.of("sh", "-c", "echo \"$1\"", "sh", "a; b"), null, null, null,
				null, null, null, null, new StdioUpstream.Ulimit(64, Duration.ofMillis(1500), null, null));

		assertThat(commands.command(stdio).argv()).containsExactly(
				StdioCommands.find("prlimit", "/usr/bin:/bin").toString(), "--nofile=64:64", "--cpu=2:2",
				"--fsize=1073741824:1073741824", "--", StdioCommands.find("sh", "/usr/bin:/bin").toString(), "-c",
				"echo \"$1\"", "sh", "a; b");
	}

	@Test
	void aProcessUnderLimitsHasThemSetByTheOperatingSystem() throws Exception {
		StdioCommands commands = new StdioCommands(Map.of("PATH", "/usr/bin:/bin")::get, this.directory,
				StdioUpstream.Ulimit.NONE);
		StdioUpstream stdio = new StdioUpstream(
				List.of("/bin/sh", "-c",
						"printf '{\"files\":%s,\"cpu\":%s,\"kib\":%s}\\n' $(ulimit -n) $(ulimit -t) $(ulimit -v)"),
				null, null, null, null, null, null, null,
				new StdioUpstream.Ulimit(64, Duration.ofSeconds(30), DataSize.ofGigabytes(2), null));
		java.util.concurrent.BlockingQueue<tools.jackson.databind.JsonNode> said = new java.util.concurrent.LinkedBlockingQueue<>();
		StdioProcess process = StdioProcess.start("limited", commands.command(stdio), StdioLimits.DEFAULTS,
				new StdioListener() {
					@Override
					public void onMessage(tools.jackson.databind.JsonNode message) {
						said.add(message);
					}

					@Override
					public void ended(StdioEnd end) {
					}
				});
		try {
			tools.jackson.databind.JsonNode limits = said.poll(10, java.util.concurrent.TimeUnit.SECONDS);
			assertThat(limits).isNotNull();
			assertThat(limits.get("files").asInt()).isEqualTo(64);
			assertThat(limits.get("cpu").asInt()).isEqualTo(30);
			assertThat(limits.get("kib").asLong()).isEqualTo(2L * 1024 * 1024);
		}
		finally {
			process.stop();
		}
	}

	@Test
	void limitsWithoutPrlimitOnThePathMakeThePolicyInvalid() throws IOException {
		Path server = executable("server");

		assertThatExceptionOfType(PolicyException.class)
			.isThrownBy(() -> load("[" + server + "]\n      ulimit:\n        open-files: 64", "PATH",
					this.directory.toString()))
			.withMessageContaining("(servers[0].stdio.ulimit): setting limits needs prlimit (util-linux)");
		load("[" + server + "]\n      ulimit:\n        open-files: 64\n        address-space: 4GB", "PATH",
				"/usr/bin:/bin");
	}

	private Path executable(String name) throws IOException {
		Path file = this.directory.resolve(name);
		Files.writeString(file, "#!/bin/sh\n");
		Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
		return file;
	}

	private void load(String command, String variable, String value) {
		StdioTestPolicy.parse("stdio:\n      command: " + command, new StdioExecutables(Map.of(variable, value)::get));
	}

}
