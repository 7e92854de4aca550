package io.github.mcpgateway.stdio;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.springframework.util.Assert;

/**
 * How to start one stdio MCP server: the executable and its arguments as a list (never a
 * shell string: nothing is expanded or split), the working directory, and the whole
 * environment of the child. The gateway's own environment never reaches the child: a
 * variable is there only if it is in {@code environment} (so {@code PATH}, which an
 * interpreter such as {@code npx} needs to find {@code node}, is listed when needed).
 *
 * @param argv the executable (a path, or a name found on the gateway's {@code PATH}) and
 * its arguments
 * @param workingDirectory the child's working directory
 * @param environment every variable the child sees
 */
public record StdioCommand(List<String> argv, Path workingDirectory, Map<String, String> environment) {

	public StdioCommand {
		Assert.notEmpty(argv, "argv must not be empty");
		Assert.hasText(argv.get(0), "the executable must not be blank");
		Assert.notNull(workingDirectory, "workingDirectory must not be null");
		Assert.notNull(environment, "environment must not be null");
		argv = List.copyOf(argv);
		environment = Map.copyOf(environment);
	}

}
