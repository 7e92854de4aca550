package io.github.mcpgateway.stdio;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.ServerPolicyCheck;
import io.github.mcpgateway.policy.StdioUpstream;

/**
 * Checks a stdio server's command against this machine when the policy is loaded (and by
 * {@code validate}): the executable is an executable file (found on the gateway's
 * {@code PATH} when the command names it without a directory), and the working directory
 * is a directory. A policy that fails it keeps the last good policy live, as any invalid
 * policy does, rather than failing each session's start.
 */
public final class StdioExecutables implements ServerPolicyCheck {

	private final UnaryOperator<@Nullable String> environment;

	/**
	 * @param environment the gateway's environment ({@code System::getenv})
	 */
	public StdioExecutables(UnaryOperator<@Nullable String> environment) {
		this.environment = environment;
	}

	@Override
	public Optional<Violation> check(McpServerPolicy server) {
		StdioUpstream stdio = server.stdio();
		if (stdio == null) {
			return Optional.empty();
		}
		String executable = stdio.executable();
		if (executable.contains("/")) {
			if (!Files.isRegularFile(Path.of(executable)) || !Files.isExecutable(Path.of(executable))) {
				return violation("stdio.command", executable + " is not an executable file");
			}
		}
		else if (onPath(executable) == null) {
			return violation("stdio.command", executable + " is not an executable file on the gateway's PATH ("
					+ this.environment.apply("PATH") + ")");
		}
		if (!stdio.ulimit().isEmpty() && onPath("prlimit") == null) {
			return violation("stdio.ulimit", "setting limits needs prlimit (util-linux) on the gateway's PATH");
		}
		if (stdio.workingDirectory() != null && !Files.isDirectory(Path.of(stdio.workingDirectory()))) {
			return violation("stdio.working-directory", stdio.workingDirectory() + " is not a directory");
		}
		return Optional.empty();
	}

	private @Nullable Path onPath(String name) {
		return StdioCommands.find(name, this.environment.apply("PATH"));
	}

	private static Optional<Violation> violation(String field, String message) {
		return Optional.of(new Violation(field, message));
	}

}
