package io.github.mcpgateway.stdio;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.StdioUpstream;
import io.github.mcpgateway.policy.StdioUpstream.EnvironmentValue;

/**
 * Turns a policy's {@code stdio} entry into the command of one process, when the process
 * starts: a value {@code from-file} or {@code from-env} is read then, so that a rotated
 * secret reaches the next process without a policy change and the policy snapshot never
 * holds one.
 */
final class StdioCommands {

	/** The largest secret file read: a credential, not a data file. */
	static final int MAX_VALUE_BYTES = 64 * 1024;

	private final UnaryOperator<@Nullable String> gatewayEnvironment;

	private final Path gatewayDirectory;

	/**
	 * @param gatewayEnvironment the gateway's own environment ({@code System::getenv})
	 * @param gatewayDirectory the working directory of a command that names none
	 */
	StdioCommands(UnaryOperator<@Nullable String> gatewayEnvironment, Path gatewayDirectory) {
		this.gatewayEnvironment = gatewayEnvironment;
		this.gatewayDirectory = gatewayDirectory;
	}

	/**
	 * The command {@code stdio} describes, with every environment value read.
	 * @throws IOException when a value cannot be read (a variable not set, a file
	 * missing, unreadable or larger than {@link #MAX_VALUE_BYTES}); the message names the
	 * variable, never its value
	 */
	StdioCommand command(StdioUpstream stdio) throws IOException {
		Map<String, String> environment = new LinkedHashMap<>();
		for (Map.Entry<String, EnvironmentValue> variable : stdio.environment().entrySet()) {
			environment.put(variable.getKey(), value(variable.getKey(), variable.getValue()));
		}
		Path directory = (stdio.workingDirectory() != null) ? Path.of(stdio.workingDirectory()) : this.gatewayDirectory;
		return new StdioCommand(stdio.command(), directory, environment);
	}

	private String value(String name, EnvironmentValue value) throws IOException {
		if (value.value() != null) {
			return value.value();
		}
		if (value.fromEnv() != null) {
			String read = this.gatewayEnvironment.apply(value.fromEnv());
			if (read == null) {
				throw new IOException(
						"stdio.environment." + name + ": the gateway's variable " + value.fromEnv() + " is not set");
			}
			return read;
		}
		Path file = Path.of(value.fromFile());
		if (!Files.isRegularFile(file) || Files.size(file) > MAX_VALUE_BYTES) {
			throw new IOException(
					"stdio.environment." + name + ": " + file + " is not a readable file of at most 64 KiB");
		}
		String read = Files.readString(file, StandardCharsets.UTF_8);
		return read.endsWith("\r\n") ? read.substring(0, read.length() - 2)
				: read.endsWith("\n") ? read.substring(0, read.length() - 1) : read;
	}

}
