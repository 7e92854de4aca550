package io.github.mcpgateway.policy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

import org.springframework.util.unit.DataSize;

/**
 * A server the gateway runs itself as a child process that speaks MCP over stdio (ADR
 * 0023), in place of an {@code upstream} URL. Constructed by {@link PolicyParser};
 * immutable, and equal when every field is, so that a changed entry is told apart from an
 * unchanged one on reload. Holds no secret: an environment value read from a file or from
 * the gateway's environment is named here and read when a process starts.
 *
 * @param command the executable (an absolute path, or a name found on the gateway's
 * {@code PATH}) and its arguments: a list, never a shell string
 * @param workingDirectory the child's working directory, an absolute path; the gateway's
 * own when omitted
 * @param environment every variable the child sees, and nothing else of the gateway's
 * environment; none when omitted
 * @param idleTimeout a session whose process saw no request and no message for this long
 * is ended; {@link #DEFAULT_IDLE_TIMEOUT} when omitted
 * @param startTimeout how long a new process has to answer {@code initialize};
 * {@link #DEFAULT_START_TIMEOUT} when omitted
 * @param maxProcesses the most sessions of this server at once (with {@code per-session},
 * its processes); {@link #DEFAULT_MAX_PROCESSES} when omitted
 * @param maxProcessesPerPrincipal the most sessions of this server one human has at once;
 * {@link #DEFAULT_MAX_PROCESSES_PER_PRINCIPAL} when omitted
 * @param process how sessions map to processes; {@link Process#PER_SESSION} when omitted
 */
public record StdioUpstream(List<String> command, @JsonProperty("working-directory") @Nullable String workingDirectory,
		@Nullable Map<String, EnvironmentValue> environment,
		@JsonProperty("idle-timeout") @Nullable Duration idleTimeout,
		@JsonProperty("start-timeout") @Nullable Duration startTimeout,
		@JsonProperty("max-processes") @Nullable Integer maxProcesses,
		@JsonProperty("max-processes-per-principal") @Nullable Integer maxProcessesPerPrincipal,
		@Nullable Process process, @Nullable Ulimit ulimit) {

	public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(15);

	public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(30);

	public static final int DEFAULT_MAX_PROCESSES = 16;

	public static final int DEFAULT_MAX_PROCESSES_PER_PRINCIPAL = 4;

	/** POSIX portable variable names. */
	private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

	public StdioUpstream {
		if (command == null || command.isEmpty()) {
			throw new IllegalArgumentException("stdio.command must list the executable and its arguments");
		}
		for (int i = 0; i < command.size(); i++) {
			if (command.get(i) == null || (i == 0 && command.get(0).isBlank())) {
				throw new IllegalArgumentException("stdio.command[" + i + "] must not be empty");
			}
		}
		command = List.copyOf(command);
		if (command.get(0).contains("/") && !Path.of(command.get(0)).isAbsolute()) {
			// A relative path would be resolved against the child's working directory.
			throw new IllegalArgumentException(
					"stdio.command[0] must be an absolute path, or a name found on the gateway's PATH");
		}
		if (workingDirectory != null && !Path.of(workingDirectory).isAbsolute()) {
			throw new IllegalArgumentException("stdio.working-directory must be an absolute path");
		}
		environment = checkedEnvironment(environment);
		idleTimeout = positive(idleTimeout, DEFAULT_IDLE_TIMEOUT, "idle-timeout");
		startTimeout = positive(startTimeout, DEFAULT_START_TIMEOUT, "start-timeout");
		maxProcesses = atLeastOne(maxProcesses, DEFAULT_MAX_PROCESSES, "max-processes");
		maxProcessesPerPrincipal = atLeastOne(maxProcessesPerPrincipal,
				Math.min(DEFAULT_MAX_PROCESSES_PER_PRINCIPAL, maxProcesses), "max-processes-per-principal");
		if (maxProcessesPerPrincipal > maxProcesses) {
			throw new IllegalArgumentException("stdio.max-processes-per-principal must not exceed max-processes");
		}
		process = (process != null) ? process : Process.PER_SESSION;
		ulimit = (ulimit != null) ? ulimit : Ulimit.NONE;
	}

	/** The executable, as the command names it. */
	public String executable() {
		return this.command.get(0);
	}

	private static Map<String, EnvironmentValue> checkedEnvironment(@Nullable Map<String, EnvironmentValue> given) {
		if (given == null) {
			return Map.of();
		}
		Map<String, EnvironmentValue> checked = new LinkedHashMap<>();
		given.forEach((name, value) -> {
			if (!VARIABLE.matcher(name).matches()) {
				throw new IllegalArgumentException(
						"stdio.environment: " + name + " is not a variable name (letters, digits and _)");
			}
			if (value == null) {
				throw new IllegalArgumentException("stdio.environment." + name + " must have a value");
			}
			checked.put(name, value);
		});
		return java.util.Collections.unmodifiableMap(checked);
	}

	private static Duration positive(@Nullable Duration value, Duration otherwise, String field) {
		if (value == null) {
			return otherwise;
		}
		if (value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException("stdio." + field + " must be positive");
		}
		return value;
	}

	private static int atLeastOne(@Nullable Integer value, int otherwise, String field) {
		if (value == null) {
			return otherwise;
		}
		if (value < 1) {
			throw new IllegalArgumentException("stdio." + field + " must be at least 1");
		}
		return value;
	}

	/**
	 * Resource limits (setrlimit) the operating system enforces on a stdio server's
	 * process and what it starts, soft and hard alike: a process past one is stopped by
	 * the kernel (a signal or a failed call), never by the gateway. A limit omitted is
	 * not set here.
	 *
	 * @param openFiles the most open file descriptors ({@code RLIMIT_NOFILE})
	 * @param cpuTime the most CPU time, rounded up to whole seconds ({@code RLIMIT_CPU}):
	 * {@code SIGXCPU}, then {@code SIGKILL}
	 * @param addressSpace the most virtual memory ({@code RLIMIT_AS}); runtimes that
	 * reserve address space up front (Node, the JVM) need several times their heap
	 * @param fileSize the largest file it may write ({@code RLIMIT_FSIZE})
	 */
	public record Ulimit(@JsonProperty("open-files") @Nullable Integer openFiles,
			@JsonProperty("cpu-time") @Nullable Duration cpuTime,
			@JsonProperty("address-space") @Nullable DataSize addressSpace,
			@JsonProperty("file-size") @Nullable DataSize fileSize) {

		/** No limit set. */
		public static final Ulimit NONE = new Ulimit(null, null, null, null);

		public Ulimit {
			if (openFiles != null && openFiles < 1) {
				throw new IllegalArgumentException("ulimit.open-files must be at least 1");
			}
			if (cpuTime != null && (cpuTime.isNegative() || cpuTime.isZero())) {
				throw new IllegalArgumentException("ulimit.cpu-time must be positive");
			}
			if ((addressSpace != null && addressSpace.toBytes() < 1) || (fileSize != null && fileSize.toBytes() < 1)) {
				throw new IllegalArgumentException("ulimit sizes must be at least 1B");
			}
		}

		/** These limits, each one not set taken from {@code defaults}. */
		public Ulimit or(Ulimit defaults) {
			return new Ulimit((this.openFiles != null) ? this.openFiles : defaults.openFiles,
					(this.cpuTime != null) ? this.cpuTime : defaults.cpuTime,
					(this.addressSpace != null) ? this.addressSpace : defaults.addressSpace,
					(this.fileSize != null) ? this.fileSize : defaults.fileSize);
		}

		/** Whether no limit is set. */
		public boolean isEmpty() {
			return this.equals(NONE);
		}

	}

	/** How a stdio server's client sessions map to its processes (ADR 0023). */
	public enum Process {

		/**
		 * Each session has a process of its own, started by its {@code initialize}: for
		 * servers that keep state per client (the default).
		 */
		@JsonProperty("per-session")
		PER_SESSION,

		/**
		 * One process serves every session, and the 2026-07-28 requests that have none:
		 * for stateless servers. The gateway initializes it once and keeps the callers'
		 * ids apart.
		 */
		@JsonProperty("shared")
		SHARED

	}

	/**
	 * One variable of the child's environment: a literal value, or where the gateway
	 * reads it when the process starts (a file, or a variable of the gateway's own
	 * environment, for secrets that must not be in the policy file). Exactly one is set.
	 *
	 * @param value the literal value
	 * @param fromEnv the gateway's environment variable that holds the value
	 * @param fromFile the absolute path of a file that holds the value (a trailing line
	 * break is dropped)
	 */
	public record EnvironmentValue(@Nullable String value, @JsonProperty("from-env") @Nullable String fromEnv,
			@JsonProperty("from-file") @Nullable String fromFile) {

		@JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
		public EnvironmentValue {
			int set = ((value != null) ? 1 : 0) + ((fromEnv != null) ? 1 : 0) + ((fromFile != null) ? 1 : 0);
			if (set != 1) {
				throw new IllegalArgumentException(
						"an environment value is a string, or one of {value}, {from-env} and {from-file}");
			}
			if (fromEnv != null && !VARIABLE.matcher(fromEnv).matches()) {
				throw new IllegalArgumentException("from-env must name a variable (letters, digits and _)");
			}
			if (fromFile != null && !Path.of(fromFile).isAbsolute()) {
				throw new IllegalArgumentException("from-file must be an absolute path");
			}
		}

		/** A literal value, as the file writes it: {@code NAME: value}. */
		@JsonCreator(mode = JsonCreator.Mode.DELEGATING)
		public static EnvironmentValue literal(String value) {
			return new EnvironmentValue(value, null, null);
		}

		/** Where the value comes from, for {@code validate} and the policy endpoint. */
		@Override
		public String toString() {
			if (this.fromEnv != null) {
				return "from-env " + this.fromEnv;
			}
			return (this.fromFile != null) ? "from-file " + this.fromFile : "value";
		}

	}

}
