package io.github.mcpgateway.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestWatcher;

import io.github.mcpgateway.support.TestJwks;

/**
 * The packaged gateway jar (failsafe passes {@code -Dgateway.jar}), started as a process
 * without the demo profile, in front of one server-everything on two paths:
 * <ul>
 * <li>{@link #GUARDED}: {@code oauth} identity; any verified principal may call every
 * tool of server-everything except {@code get-env};</li>
 * <li>{@link #OPEN}: {@code delegated-header} identity, every tool granted;</li>
 * <li>{@link #JSON}, only when started in front of a JSON server as well: {@code oauth}
 * identity, every tool granted;</li>
 * <li>{@link #COUNTING}, only when {@link #alsoInFrontOfCountingServer} was called:
 * {@code oauth} identity, every tool granted, and the quota {@link #COUNTING_LIMIT} on
 * the tool {@code limited}.</li>
 * <li>{@link #VIRTUAL}, only when {@link #alsoVirtualServer} was called: a virtual server
 * over server-everything and the 2026-07-28 server.</li>
 * <li>{@link #SOLO}, only when {@link #alsoSingleMemberVirtualServer} was called: a
 * virtual server whose only member is server-everything on {@link #SOLO_MEMBER}.</li>
 * </ul>
 * Register it with {@code @RegisterExtension}: when a test or a {@code @BeforeAll} method
 * fails, it prints the tail of the gateway log.
 */
final class GatewayProcess implements TestWatcher, LifecycleMethodExecutionExceptionHandler {

	static final String GUARDED = "/mcp/test/everything";

	static final String OPEN = "/mcp/test/everything-open";

	static final String JSON = "/mcp/test/json";

	/** server-everything again, for team {@code ops} only: {@code server_not_granted}. */
	static final String OPS_ONLY = "/mcp/test/everything-ops";

	/**
	 * A {@code delegated-header} server in front of the 2026-07-28 server
	 * ({@code v2-server.mjs}), when {@link #alsoInFrontOfStatelessServer} was called.
	 */
	static final String STATELESS_OPEN = "/mcp/test/stateless-open";

	/**
	 * An {@code oauth} server in front of {@code counting-server.mjs} (event streams,
	 * counted tool runs), when {@link #alsoInFrontOfCountingServer} was called: every
	 * tool granted, calls of {@code limited} under the quota {@link #COUNTING_LIMIT}.
	 */
	static final String COUNTING = "/mcp/test/counting";

	/**
	 * The name of the quota on {@link #COUNTING}'s tool {@code limited}: 2 calls per
	 * principal, then one more every 30 s ({@code tokens: 2, period: 1m}). A third call
	 * of one principal in a row is {@code rate_limited}; give each test its own
	 * principal.
	 */
	static final String COUNTING_LIMIT = "limited-calls";

	/**
	 * A virtual server ({@code test/workspace}) over two {@code oauth} members, when
	 * {@link #alsoVirtualServer} was called: server-everything under the prefix
	 * {@link #VIRTUAL_EVERYTHING} (member {@code test/virtual-everything}, every tool for
	 * team {@link #VIRTUAL_TEAM} except {@link #VIRTUAL_EXCEPTED}) and the 2026-07-28
	 * server under {@link #VIRTUAL_STATELESS} (member {@code test/virtual-stateless},
	 * every tool for that team). No grant of the virtual server's own.
	 */
	static final String VIRTUAL = "/mcp/test/workspace";

	static final String VIRTUAL_EVERYTHING = "every";

	static final String VIRTUAL_STATELESS = "demo";

	/** The team whose members may use {@link #VIRTUAL}'s members. */
	static final String VIRTUAL_TEAM = "virtual";

	/** server-everything's tool in the {@code except} of its member's grant. */
	static final String VIRTUAL_EXCEPTED = "get-env";

	/**
	 * A virtual server ({@code test/solo}) with one member, when
	 * {@link #alsoSingleMemberVirtualServer} was called: server-everything on
	 * {@link #SOLO_MEMBER} under the prefix {@link #SOLO_PREFIX}. Every verified
	 * principal may call every tool of the member; the virtual server has no grant of its
	 * own, so a request through it is decided as the same request to the member.
	 */
	static final String SOLO = "/mcp/test/solo";

	/**
	 * The only member of {@link #SOLO}: an {@code oauth} server in front of
	 * server-everything ({@code test/solo-everything}), every tool granted.
	 */
	static final String SOLO_MEMBER = "/mcp/test/solo-everything";

	static final String SOLO_PREFIX = "every";

	/**
	 * server-everything 2026.8.31's tools (some only for clients with matching
	 * capabilities).
	 */
	private static final List<String> TOOLS_BUT_GET_ENV = List.of("echo", "get-annotated-message", "get-resource-links",
			"get-resource-reference", "get-roots-list", "get-structured-content", "get-sum", "get-tiny-image",
			"gzip-file-as-resource", "simulate-research-query", "toggle-simulated-logging", "toggle-subscriber-updates",
			"trigger-elicitation-request", "trigger-elicitation-request-async", "trigger-long-running-operation",
			"trigger-sampling-request", "trigger-sampling-request-async", "trigger-url-elicitation");

	private final String name;

	private Process process;

	private List<String> command;

	private int port;

	private Path log;

	private int statelessPort;

	private int countingPort;

	private boolean virtualServer;

	private boolean singleMemberVirtualServer;

	private String moreServers = "";

	private final java.util.Map<String, String> environment = new java.util.HashMap<>();

	GatewayProcess(String name) {
		this.name = name;
	}

	/**
	 * Puts the 2026-07-28 server listening on {@code port} behind {@link #STATELESS_OPEN}
	 * too; call before {@code startInFrontOf}.
	 */
	void alsoInFrontOfStatelessServer(int port) {
		this.statelessPort = port;
	}

	/**
	 * Puts {@code counting-server.mjs} listening on {@code port} behind {@link #COUNTING}
	 * too; call before {@code startInFrontOf}.
	 */
	void alsoInFrontOfCountingServer(int port) {
		this.countingPort = port;
	}

	/**
	 * Puts the virtual server {@link #VIRTUAL} over server-everything and the 2026-07-28
	 * server in the policy too; call after {@link #alsoInFrontOfStatelessServer} and
	 * before {@code startInFrontOf}.
	 */
	void alsoVirtualServer() {
		if (this.statelessPort == 0) {
			throw new IllegalStateException(
					"the virtual server needs the stateless server: alsoInFrontOfStatelessServer");
		}
		this.virtualServer = true;
	}

	/**
	 * Puts the virtual server {@link #SOLO}, over server-everything alone, in the policy
	 * too; call before {@code startInFrontOf}. Not with {@link #alsoVirtualServer}: each
	 * writes the file's {@code virtual-servers} list.
	 */
	void alsoSingleMemberVirtualServer() {
		this.singleMemberVirtualServer = true;
	}

	/**
	 * Adds server entries (YAML list items, indented as the others) to the policy; call
	 * before {@code startInFrontOf}.
	 */
	void alsoServers(String entries) {
		this.moreServers += entries;
	}

	/** Sets a variable of the gateway process's environment; call before starting it. */
	void environment(String name, String value) {
		this.environment.put(name, value);
	}

	void startInFrontOf(int everythingPort) throws Exception {
		startInFrontOf(everythingPort, 0);
	}

	/**
	 * Starts the gateway in front of server-everything and, unless {@code jsonPort} is
	 * {@code 0}, of an MCP server answering JSON at {@link #JSON}.
	 * @param gatewayArgs further command-line properties of the gateway
	 */
	void startInFrontOf(int everythingPort, int jsonPort, String... gatewayArgs) throws Exception {
		this.port = NodeInterop.freePort();
		this.log = NodeInterop.LOGS.resolve(this.name + "-gateway.log");
		Path policy = NodeInterop.LOGS.resolve(this.name + "-policy.yaml");
		Files.writeString(policy, """
				servers:
				  - namespace: test
				    name: everything
				    uid: uid-everything
				    upstream: http://127.0.0.1:%1$d/mcp
				    path: %2$s
				    grants:
				      - tools: [%3$s]
				  - namespace: test
				    name: everything-open
				    upstream: http://127.0.0.1:%1$d/mcp
				    path: %4$s
				    identity: delegated-header
				    grants:
				      - tools: ["*"]
				  - namespace: test
				    name: everything-ops
				    uid: uid-everything-ops
				    upstream: http://127.0.0.1:%1$d/mcp
				    path: %5$s
				    grants:
				      - principal: { team: ops }
				        tools: ["*"]
				""".formatted(everythingPort, GUARDED, String.join(", ", TOOLS_BUT_GET_ENV), OPEN, OPS_ONLY)
				+ ((jsonPort == 0) ? "" : """
						  - namespace: test
						    name: json
						    uid: uid-json
						    upstream: http://127.0.0.1:%d/mcp
						    path: %s
						    grants:
						      - tools: ["*"]
						""".formatted(jsonPort, JSON)) + ((this.statelessPort == 0) ? "" : """
						  - namespace: test
						    name: stateless-open
						    upstream: http://127.0.0.1:%d/mcp
						    path: %s
						    identity: delegated-header
						    grants:
						      - tools: ["*"]
						""".formatted(this.statelessPort, STATELESS_OPEN)) + ((this.countingPort == 0) ? "" : """
						  - namespace: test
						    name: counting
						    uid: uid-counting
						    upstream: http://127.0.0.1:%d/mcp
						    path: %s
						    grants:
						      - tools: ["*"]
						    limits:
						      - name: %s
						        tools: [limited]
						        tokens: 2
						        period: 1m
						""".formatted(this.countingPort, COUNTING, COUNTING_LIMIT)) + this.moreServers
				+ (this.virtualServer ? virtualServerPolicy(everythingPort) : "")
				+ (this.singleMemberVirtualServer ? singleMemberVirtualServerPolicy(everythingPort) : ""));
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
						// C1 only, one GC thread: a faster start; these tests check
						// behaviour.
						"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", System.getProperty("gateway.jar"),
						"--server.port=" + this.port, "--gateway.identity.oauth.issuer=" + TestJwks.ISSUER,
						"--gateway.identity.oauth.jwk-set-uri=" + TestJwks.get().jwksUri(),
						// A gateway-wide audience no token of these tests carries: each
						// token
						// names its resource.
						"--gateway.identity.oauth.audiences[0]=" + TestJwks.AUDIENCE,
						"--gateway.policy.location=" + policy.toAbsolutePath(),
						// Generous: SDK servers keep GET streams alive every 15 s.
						"--gateway.proxy.first-byte-timeout=60s", "--gateway.proxy.idle-timeout=60s"));
		command.addAll(List.of(gatewayArgs));
		this.command = command;
		Files.deleteIfExists(this.log);
		launch();
	}

	/**
	 * The members of {@link #VIRTUAL} and the virtual server, at the end of the file:
	 * {@code virtual-servers} follows the last server.
	 */
	private String virtualServerPolicy(int everythingPort) {
		return """
				  - namespace: test
				    name: virtual-everything
				    uid: uid-virtual-everything
				    upstream: http://127.0.0.1:%1$d/mcp
				    path: /mcp/test/virtual-everything
				    grants:
				      - principal: { team: %3$s }
				        tools: ["*"]
				        except: [%4$s]
				  - namespace: test
				    name: virtual-stateless
				    uid: uid-virtual-stateless
				    upstream: http://127.0.0.1:%2$d/mcp
				    path: /mcp/test/virtual-stateless
				    grants:
				      - principal: { team: %3$s }
				        tools: ["*"]
				virtual-servers:
				  - namespace: test
				    name: workspace
				    uid: uid-workspace
				    path: %5$s
				    members:
				      - server: test/virtual-everything
				        prefix: %6$s
				      - server: test/virtual-stateless
				        prefix: %7$s
				""".formatted(everythingPort, this.statelessPort, VIRTUAL_TEAM, VIRTUAL_EXCEPTED, VIRTUAL,
				VIRTUAL_EVERYTHING, VIRTUAL_STATELESS);
	}

	/**
	 * {@link #SOLO}'s member and the virtual server, at the end of the file.
	 */
	private String singleMemberVirtualServerPolicy(int everythingPort) {
		if (this.virtualServer) {
			throw new IllegalStateException("one virtual-servers list: alsoVirtualServer or the single-member one");
		}
		return """
				  - namespace: test
				    name: solo-everything
				    uid: uid-solo-everything
				    upstream: http://127.0.0.1:%d/mcp
				    path: %s
				    grants:
				      - tools: ["*"]
				virtual-servers:
				  - namespace: test
				    name: solo
				    uid: uid-solo
				    path: %s
				    members:
				      - server: test/solo-everything
				        prefix: %s
				""".formatted(everythingPort, SOLO_MEMBER, SOLO, SOLO_PREFIX);
	}

	/**
	 * Stops the gateway (graceful shutdown) and starts it again on the same port with the
	 * same arguments, as a rolling update replaces a replica. The log goes on in the same
	 * file.
	 */
	void restart() throws Exception {
		stop();
		launch();
	}

	private void launch() throws Exception {
		ProcessBuilder builder = new ProcessBuilder(this.command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(this.log.toFile()));
		builder.environment().putAll(this.environment);
		this.process = builder.start();
		awaitReadiness();
	}

	/**
	 * The URL of a path on the gateway, which is also the RFC 8707 resource URI of a
	 * server.
	 */
	String url(String path) {
		return "http://127.0.0.1:" + this.port + path;
	}

	/**
	 * Stops the node processes of {@code node} first, then the gateway: the event streams
	 * the gateway still relays end with their upstream, so its graceful shutdown has no
	 * request left to wait for.
	 */
	void stopAfter(@Nullable NodeInterop node) throws InterruptedException {
		if (node != null) {
			node.stopAll();
		}
		stop();
	}

	/** The gateway's process id. */
	long pid() {
		return this.process.pid();
	}

	/** Stops the gateway (graceful shutdown, forced after 15 s). */
	void stop() throws InterruptedException {
		if (this.process != null) {
			this.process.destroy();
			if (!this.process.waitFor(15, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
			}
		}
	}

	/**
	 * The audit lines the gateway has logged so far, each the JSON object of one event.
	 */
	List<String> auditLines() throws IOException {
		return Files.readAllLines(this.log)
			.stream()
			.filter((line) -> line.contains(" mcp.audit ") && line.contains("{"))
			.map((line) -> line.substring(line.indexOf('{')))
			.toList();
	}

	String logTail(int lines) {
		try {
			List<String> all = Files.readAllLines(this.log);
			return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
		}
		catch (IOException | RuntimeException ex) {
			return "(no gateway log: " + ex + ")";
		}
	}

	@Override
	public void testFailed(ExtensionContext context, Throwable cause) {
		printLogTail(context);
	}

	@Override
	public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable throwable)
			throws Throwable {
		printLogTail(context);
		throw throwable;
	}

	private void printLogTail(ExtensionContext context) {
		if (this.log != null) {
			System.out.println("---- " + context.getDisplayName() + " failed; gateway log " + this.log.toAbsolutePath()
					+ ", last 80 lines:\n" + logTail(80) + "\n----");
		}
	}

	private void awaitReadiness() throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		HttpRequest readiness = HttpRequest.newBuilder(URI.create(url("/actuator/health/readiness"))).build();
		Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
		while (Instant.now().isBefore(deadline)) {
			try {
				if (http.send(readiness, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
					return;
				}
			}
			catch (IOException notYet) {
				// not listening yet
			}
			if (!this.process.isAlive()) {
				throw new IllegalStateException("The gateway exited:\n" + logTail(80));
			}
			Thread.sleep(200);
		}
		throw new IllegalStateException("The gateway did not become ready within 90 s");
	}

}
