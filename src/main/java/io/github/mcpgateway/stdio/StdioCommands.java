package io.github.mcpgateway.stdio;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.StdioUpstream;
import io.github.mcpgateway.policy.StdioUpstream.EnvironmentValue;
import io.github.mcpgateway.policy.StdioUpstream.Ulimit;

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

	private final Ulimit defaults;

	/**
	 * @param gatewayEnvironment the gateway's own environment ({@code System::getenv})
	 * @param gatewayDirectory the working directory of a command that names none
	 * @param defaults the limits of a server whose {@code ulimit} does not set them
	 */
	StdioCommands(UnaryOperator<@Nullable String> gatewayEnvironment, Path gatewayDirectory, Ulimit defaults) {
		this.gatewayEnvironment = gatewayEnvironment;
		this.gatewayDirectory = gatewayDirectory;
		this.defaults = defaults;
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
		return new StdioCommand(limited(stdio.command(), stdio.ulimit().or(this.defaults)), directory, environment);
	}

	/**
	 * The command under {@code prlimit}, which sets the limits (soft and hard) and then
	 * runs it without a shell; the command unchanged when no limit is set. The executable
	 * is found on the gateway's {@code PATH} first, since the child's environment need
	 * not have one.
	 */
	private List<String> limited(List<String> command, Ulimit ulimit) throws IOException {
		if (ulimit.isEmpty()) {
			return command;
		}
		String path = this.gatewayEnvironment.apply("PATH");
		Path prlimit = find("prlimit", path);
		Path executable = command.get(0).contains("/") ? Path.of(command.get(0)) : find(command.get(0), path);
		if (prlimit == null || executable == null) {
			throw new IOException(
					"stdio.ulimit needs prlimit (util-linux) and " + command.get(0) + " on the gateway's PATH");
		}
		List<String> limited = new ArrayList<>(List.of(prlimit.toString()));
		if (ulimit.openFiles() != null) {
			limited.add("--nofile=" + ulimit.openFiles() + ":" + ulimit.openFiles());
		}
		if (ulimit.cpuTime() != null) {
			long seconds = (ulimit.cpuTime().toMillis() + 999) / 1000;
			limited.add("--cpu=" + seconds + ":" + seconds);
		}
		if (ulimit.addressSpace() != null) {
			limited.add("--as=" + ulimit.addressSpace().toBytes() + ":" + ulimit.addressSpace().toBytes());
		}
		if (ulimit.fileSize() != null) {
			limited.add("--fsize=" + ulimit.fileSize().toBytes() + ":" + ulimit.fileSize().toBytes());
		}
		limited.add("--");
		limited.add(executable.toString());
		limited.addAll(command.subList(1, command.size()));
		return limited;
	}

	/**
	 * Where {@code name} is on {@code path} (a {@code PATH} value), as a process start
	 * finds it: the first executable file of that name; {@code null} when none is.
	 */
	static @Nullable Path find(String name, @Nullable String path) {
		if (path == null) {
			return null;
		}
		for (String directory : path.split(java.io.File.pathSeparator)) {
			Path candidate = Path.of(directory.isEmpty() ? "." : directory, name);
			if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
				return candidate;
			}
		}
		return null;
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
