package io.github.mcpgateway.stdio;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.RefusalStatuses;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.policy.StdioUpstream;
import io.github.mcpgateway.session.SessionEvent;
import io.github.mcpgateway.support.MutableClock;
import io.github.mcpgateway.support.StdioTestPolicy;
import io.github.mcpgateway.transport.DispatchRefusedException;
import io.github.mcpgateway.transport.UpstreamCall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The Streamable HTTP transport over stdio processes (ADR 0023), with the official MCP
 * Java SDK's stdio server ({@link SdkStdioServer}) as the child of each session: what a
 * client's HTTP requests get, and how sessions and their processes begin and end.
 */
class StdioTransportTest {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final GatewayErrorRenderer ERRORS = new GatewayErrorRenderer(JSON, RefusalStatuses.HTTP);

	private static final String INITIALIZE = """
			{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",
			"capabilities":{"roots":{}},"clientInfo":{"name":"test","version":"1"}}}""";

	private final MutableClock clock = new MutableClock();

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final List<Object> events = new CopyOnWriteArrayList<>();

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final List<StdioSessions> registries = new ArrayList<>();

	private StdioSessions sessions = sessions(8);

	private StdioTransport transport = new StdioTransport(this.sessions, Duration.ofSeconds(30), 1 << 20, ERRORS);

	private final McpServerPolicy server = server("");

	/** The {@code MCP-Protocol-Version} of the requests. */
	private String revision = "2025-06-18";

	/** The calls the transport handed the gateway, to give up. */
	private final List<UpstreamCall> calls = new CopyOnWriteArrayList<>();

	@AfterEach
	void stopEverything() {
		this.registries.forEach(StdioSessions::stop);
		this.executor.shutdownNow();
	}

	@Test
	void initializeStartsAProcessAndAnswersItsResultWithANewSession() throws Exception {
		StdioResponse response = post(null, "alice", INITIALIZE);

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.contentType()).isEqualTo("application/json");
		assertThat(response.sessionId()).isNotBlank();
		assertThat(body(response).at("/result/serverInfo/name").asString()).isEqualTo("sdk-stdio-server");
		assertThat(this.sessions.size()).isOne();
		assertThat(this.events).singleElement()
			.isInstanceOfSatisfying(StdioProcessEvent.class,
					(event) -> assertThat(event.type()).isEqualTo(StdioProcessEvent.Type.STARTED));
		assertThat(this.meters.get(StdioEvents.PROCESSES).gauge().value()).isEqualTo(1);
		assertThat(this.sessions.processes()).isOne();
	}

	@Test
	void aRequestOfTheSessionGetsTheProcessesResponseAsOneJsonReplyWithTheClientsId() throws Exception {
		String session = initialized("alice");

		StdioResponse response = post(session, "alice", call("\"a-1\"", "echo", "hello"));

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.contentType()).isEqualTo("application/json");
		JsonNode reply = body(response);
		assertThat(reply.get("id").asString()).isEqualTo("a-1");
		assertThat(reply.at("/result/content/0/text").asString()).isEqualTo("echo: hello");
	}

	@Test
	void aNotificationIsAccepted() throws Exception {
		String session = initialize("alice");

		assertThat(post(session, "alice", "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").status())
			.isEqualTo(202);
	}

	@Test
	void theChildSeesOnlyTheEnvironmentThePolicyNamesWithValuesReadFromTheGateway() throws Exception {
		String session = initialized("alice");

		assertThat(text(post(session, "alice", call("1", "env", "MARKER")))).isEqualTo("marker from GATEWAY_MARKER");
		assertThat(text(post(session, "alice", call("2", "env", "HOME")))).isEqualTo("null");
		assertThat(text(post(session, "alice", call("3", "env", "PATH")))).isEqualTo("null");
	}

	@Test
	void eachSessionHasAProcessOfItsOwn() throws Exception {
		String first = initialized("alice");
		String second = initialized("alice");

		assertThat(text(post(first, "alice", call("1", "count", "x")))).isEqualTo("1");
		assertThat(text(post(first, "alice", call("2", "count", "x")))).isEqualTo("2");
		assertThat(text(post(second, "alice", call("1", "count", "x")))).isEqualTo("1");
		assertThat(this.sessions.sizeOf(this.server)).isEqualTo(2);
	}

	@Test
	void theProcessesOwnRequestGoesToTheGetStreamAndTheClientsAnswerBackToTheProcess() throws Exception {
		String session = initialized("alice");
		StdioResponse stream = exchange(session, "alice", "GET", "");
		assertThat(stream.status()).isEqualTo(200);
		assertThat(stream.contentType()).isEqualTo("text/event-stream");
		BufferedReader events = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8));

		CompletableFuture<StdioResponse> call = CompletableFuture
			.supplyAsync(() -> unchecked(() -> post(session, "alice", call("7", "roots", "x"))), this.executor);
		JsonNode request = nextEvent(events);
		assertThat(request.get("method").asString()).isEqualTo("roots/list");
		StdioResponse answered = post(session, "alice", """
				{"jsonrpc":"2.0","id":%s,"result":{"roots":[{"uri":"file:///work/alice","name":"alice"}]}}"""
			.formatted(request.get("id")));

		assertThat(answered.status()).isEqualTo(202);
		assertThat(text(call.get(20, TimeUnit.SECONDS))).isEqualTo("file:///work/alice");
		stream.body().close();
	}

	@Test
	void aSecondGetStreamOfTheSessionIsAConflict() throws Exception {
		String session = initialized("alice");
		StdioResponse first = exchange(session, "alice", "GET", "");

		StdioResponse second = exchange(session, "alice", "GET", "");
		assertThat(second.status()).isEqualTo(409);
		assertThat(body(second).at("/error/data/code").asString()).isEqualTo("stream_already_open");
		first.body().close();
		assertThat(exchange(session, "alice", "GET", "").status()).isEqualTo(200);
	}

	@Test
	void deleteEndsTheProcessAndTheSessionIsUnknownAfter() throws Exception {
		String session = initialized("alice");
		StdioProcess process = ((ProcessSession) this.sessions.find(session)).child().process();

		assertThat(exchange(session, "alice", "DELETE", "").status()).isEqualTo(200);

		assertThat(post(session, "alice", call("1", "echo", "x")).status()).isEqualTo(404);
		assertThat(process.awaitEnded(Duration.ofSeconds(10))).isTrue();
		assertThat(process.isAlive()).isFalse();
		await().untilAsserted(() -> assertThat(ended()).singleElement()
			.satisfies((event) -> assertThat(event.cause()).isEqualTo("deleted")));
		assertThat(this.meters.get(StdioEvents.ENDS).tag("cause", "deleted").counter().count()).isOne();
	}

	@Test
	void aProcessThatEndsDuringACallFailsTheCallAsBrokenAndEndsItsSession() throws Exception {
		String session = initialized("alice");

		assertThatExceptionOfType(IOException.class).isThrownBy(() -> post(session, "alice", call("1", "exit", "3")))
			.isNotInstanceOf(SocketTimeoutException.class);

		assertThat(post(session, "alice", call("2", "echo", "x")).status()).isEqualTo(404);
		await().untilAsserted(() -> assertThat(ended()).singleElement().satisfies((event) -> {
			assertThat(event.cause()).isEqualTo("exited");
			assertThat(event.exitCode()).isEqualTo(3);
		}));
		assertThat(this.sessions.size()).isZero();
	}

	@Test
	void noResponseWithinTheReplyTimeoutIsAReadTimeout() throws Exception {
		this.transport = new StdioTransport(this.sessions, Duration.ofMillis(500), 1 << 20, ERRORS);
		String session = initialized("alice");

		assertThatExceptionOfType(SocketTimeoutException.class)
			.isThrownBy(() -> post(session, "alice", call("1", "sleep", "3000")));
		assertThat(text(post(session, "alice", call("1", "echo", "again")))).isEqualTo("echo: again");
	}

	@Test
	void aPrincipalPastItsCapIsRefusedAndSoIsANewSessionPastTheServersCap() throws Exception {
		McpServerPolicy capped = server("max-processes: 2\n      max-processes-per-principal: 1\n");
		assertThat(post(capped, null, "alice", INITIALIZE).sessionId()).isNotNull();

		assertThatExceptionOfType(DispatchRefusedException.class)
			.isThrownBy(() -> post(capped, null, "alice", INITIALIZE))
			.satisfies((refused) -> assertThat(refused.error().code()).isEqualTo("stdio_processes_per_principal"));
		assertThat(post(capped, null, "bob", INITIALIZE).sessionId()).isNotNull();
		assertThatExceptionOfType(DispatchRefusedException.class)
			.isThrownBy(() -> post(capped, null, "carol", INITIALIZE))
			.satisfies((refused) -> assertThat(refused.error().code()).isEqualTo("stdio_process_capacity"));
		assertThat(this.meters.get(StdioEvents.REFUSALS).tag("reason", "processes_per_principal").counter().count())
			.isOne();
		assertThat(this.meters.get(StdioEvents.REFUSALS).tag("reason", "process_capacity").counter().count()).isOne();
		assertThat(this.sessions.size()).isEqualTo(2);
	}

	@Test
	void aReplicaPastItsCapRefusesANewSessionOfAnyServer() throws Exception {
		useSessions(sessions(1));
		post(null, "alice", INITIALIZE);

		assertThatExceptionOfType(DispatchRefusedException.class)
			.isThrownBy(() -> post(server("max-processes: 9\n"), null, "bob", INITIALIZE))
			.satisfies((refused) -> assertThat(refused.error().code()).isEqualTo("stdio_process_capacity"));
	}

	@Test
	void aSessionIdleForItsServersIdleTimeoutEnds() throws Exception {
		String session = initialized("alice");
		this.clock.advance(Duration.ofSeconds(59));
		this.sessions.endIdle();
		assertThat(post(session, "alice", call("1", "echo", "still here")).status()).isEqualTo(200);

		this.clock.advance(Duration.ofSeconds(61));
		this.sessions.endIdle();

		assertThat(post(session, "alice", call("2", "echo", "x")).status()).isEqualTo(404);
		await().untilAsserted(() -> assertThat(ended()).singleElement()
			.satisfies((event) -> assertThat(event.cause()).isEqualTo("idle")));
	}

	@Test
	void aPolicyThatChangesTheServersCommandEndsItsSessionsAndAnUnchangedOneDoesNot() throws Exception {
		String session = initialized("alice");

		this.sessions.policyPublished(policyOf(""));
		assertThat(this.sessions.find(session)).isNotNull();
		this.sessions.policyPublished(policyOf("max-processes: 3\n"));

		assertThat(this.sessions.find(session)).isNull();
		await().untilAsserted(() -> assertThat(ended()).singleElement()
			.satisfies((event) -> assertThat(event.cause()).isEqualTo("policy")));
	}

	@Test
	void aSessionTheGatewayForgetsEndsItsProcess() throws Exception {
		String session = initialized("alice");

		this.sessions.onSessionEvent(
				new SessionEvent(Instant.now(this.clock), SessionEvent.Type.REVOKED, session, "test/stdio", "alice"));

		assertThat(this.sessions.find(session)).isNull();
		await().untilAsserted(() -> assertThat(ended()).singleElement()
			.satisfies((event) -> assertThat(event.cause()).isEqualTo("session_ended")));
	}

	@Test
	void withoutASessionOnlyInitializeIsServedAndAnUnknownOrSomeoneElsesSessionIsNotFound() throws Exception {
		String session = initialized("alice");

		StdioResponse missing = post(null, "alice", call("1", "echo", "x"));
		assertThat(missing.status()).isEqualTo(400);
		assertThat(body(missing).at("/error/data/code").asString()).isEqualTo("session_id_missing");
		StdioResponse unknown = post("no-such-session", "alice", call("\"u\"", "echo", "x"));
		assertThat(unknown.status()).isEqualTo(404);
		JsonNode notFound = body(unknown);
		assertThat(notFound.at("/error/data/code").asString()).isEqualTo("session_not_found");
		assertThat(notFound.at("/error/code").asInt()).isEqualTo(-32004);
		assertThat(notFound.get("id").asString()).isEqualTo("u");
		assertThat(exchange((String) null, "alice", "GET", "").status()).isEqualTo(400);
		assertThat(post("no-such-session", "alice", call("1", "echo", "x")).status()).isEqualTo(404);
		assertThat(post(session, "mallory", call("1", "echo", "x")).status()).isEqualTo(404);
		assertThat(post(session, "alice", INITIALIZE).status()).isEqualTo(400);
		assertThat(post(session, "alice", "[1, 2]").status()).isEqualTo(400);
	}

	@Test
	void aCommandThatCannotStartIsARefusedConnectionAndCounted() {
		McpServerPolicy missing = parse("""
				stdio:
				      command: [/nonexistent/server]
				""");

		assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> post(missing, null, "alice", INITIALIZE));
		assertThat(this.sessions.size()).isZero();
		assertThat(this.meters.get(StdioEvents.STARTS).tag("result", "failed").counter().count()).isOne();
		McpServerPolicy sharedMissing = parse("""
				stdio:
				      command: [/nonexistent/server]
				      process: shared
				""");
		assertThatExceptionOfType(ConnectException.class)
			.isThrownBy(() -> post(sharedMissing, null, "alice", INITIALIZE));
		assertThatExceptionOfType(ConnectException.class)
			.isThrownBy(() -> post(sharedMissing, null, "bob", INITIALIZE));
		assertThat(this.sessions.processes()).isZero();
		assertThat(this.meters.get(StdioEvents.STARTS).tag("result", "failed").counter().count()).isEqualTo(3);
	}

	@Test
	void sharedSessionsUseOneProcessAndEachGetsItsRepliesWithItsOwnIds() throws Exception {
		McpServerPolicy shared = server("process: shared\n");
		String alice = post(shared, null, "alice", INITIALIZE).sessionId();
		StdioResponse bobs = post(shared, null, "bob", INITIALIZE);
		String bob = bobs.sessionId();

		assertThat(alice).isNotNull().isNotEqualTo(bob);
		JsonNode initialized = body(bobs);
		assertThat(initialized.get("id").asInt()).isZero();
		assertThat(initialized.at("/result/serverInfo/name").asString()).isEqualTo("sdk-stdio-server");
		assertThat(this.sessions.processes()).isOne();
		assertThat(text(post(shared, alice, "alice", call("\"x\"", "count", "-")))).isEqualTo("1");
		assertThat(text(post(shared, bob, "bob", call("\"x\"", "count", "-")))).isEqualTo("2");
		CompletableFuture<StdioResponse> first = CompletableFuture
			.supplyAsync(() -> unchecked(() -> post(shared, alice, "alice", call("5", "sleep", "700"))), this.executor);
		CompletableFuture<StdioResponse> second = CompletableFuture
			.supplyAsync(() -> unchecked(() -> post(shared, bob, "bob", call("5", "sleep", "700"))), this.executor);
		assertThat(body(first.get(20, TimeUnit.SECONDS)).get("id").asInt()).isEqualTo(5);
		assertThat(body(second.get(20, TimeUnit.SECONDS)).get("id").asInt()).isEqualTo(5);

		assertThat(exchange(shared, alice, "alice", "DELETE").status()).isEqualTo(200);
		assertThat(post(shared, alice, "alice", call("6", "echo", "x")).status()).isEqualTo(404);
		assertThat(text(post(shared, bob, "bob", call("6", "echo", "still")))).isEqualTo("echo: still");
		assertThat(this.sessions.processes()).isOne();
	}

	@Test
	void aPolicyThatChangesASharedServerStopsItsProcessAndItsSessions() throws Exception {
		McpServerPolicy shared = server("process: shared\n");
		String session = post(shared, null, "alice", INITIALIZE).sessionId();

		this.sessions.policyPublished(policyOf("process: shared\n"));
		assertThat(this.sessions.processes()).isOne();
		this.sessions.policyPublished(policyOf("process: shared\n      max-processes: 3\n"));

		assertThat(this.sessions.processes()).isZero();
		await().untilAsserted(() -> assertThat(ended()).singleElement().satisfies((event) -> {
			assertThat(event.cause()).isEqualTo("policy");
			assertThat(event.sessionId()).isNull();
		}));
		assertThat(post(shared, session, "alice", call("1", "echo", "x")).status()).isEqualTo(404);
	}

	@Test
	void theSharedProcessSeesTheGatewaysIdsAndA2026RequestLeftIsCancelledButA2025OneIsNot() throws Exception {
		Path log = Files.createTempFile("stdio-received", ".log");
		McpServerPolicy shared = scripted(log);
		String session = post(shared, null, "alice", INITIALIZE).sessionId();

		assertThat(post(shared, session, "alice",
				"{\"jsonrpc\":\"2.0\",\"id\":\"mine\",\"method\":\"tools/call\"," + "\"params\":{\"name\":\"fast\"}}")
			.status()).isEqualTo(200);
		assertThat(giveUp(shared, session,
				"{\"jsonrpc\":\"2.0\",\"id\":\"old\",\"method\":\"tools/call\"," + "\"params\":{\"name\":\"slow\"}}"))
			.isInstanceOf(IOException.class);
		this.revision = "2026-07-28";
		StdioResponse stateless = post(shared, null, "alice",
				"{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"tools/call\",\"params\":{\"name\":\"fast\"}}");
		assertThat(stateless.status()).isEqualTo(200);
		assertThat(body(stateless).get("id").asInt()).isEqualTo(41);
		assertThat(giveUp(shared, null,
				"{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"tools/call\"," + "\"params\":{\"name\":\"slow\"}}"))
			.isInstanceOf(IOException.class);

		await().untilAsserted(() -> assertThat(Files.readAllLines(log)).anyMatch((line) -> line.contains("cancelled")));
		List<JsonNode> received = Files.readAllLines(log).stream().map(JSON::readTree).toList();
		assertThat(received).extracting((message) -> message.path("method").asString(""))
			.containsExactly("initialize", "notifications/initialized", "tools/call", "tools/call", "tools/call",
					"tools/call", "notifications/cancelled");
		assertThat(received.get(0).at("/params/clientInfo/name").asString()).isEqualTo("mcp-gateway");
		assertThat(received.subList(2, 6)).allSatisfy((request) -> assertThat(request.get("id").isNumber()).isTrue());
		assertThat(received.get(6).at("/params/requestId")).isEqualTo(received.get(5).get("id"));
	}

	@Test
	void a2026RequestWithoutASessionOfAPerSessionServerIsABadRequest() throws Exception {
		this.revision = "2026-07-28";

		StdioResponse missing = post(null, "alice", call("1", "echo", "x"));
		assertThat(missing.status()).isEqualTo(400);
		assertThat(body(missing).at("/error/data/code").asString()).isEqualTo("session_id_missing");
		assertThat(this.sessions.processes()).isZero();
	}

	// ---- helpers --------------------------------------------------------------------

	/**
	 * A shared stdio server in sh that logs every line it receives to {@code log},
	 * answers {@code initialize} and a {@code tools/call} of {@code fast}, and never
	 * answers one of {@code slow}.
	 */
	private static McpServerPolicy scripted(Path log) throws IOException {
		Path script = Files.createTempFile("stdio-server", ".sh");
		Files.writeString(script,
				"""
						while IFS= read -r line; do
						  printf '%s\\n' "$line" >> "$LOG"
						  id=$(printf '%s' "$line" | sed -n 's/.*"id":\\([0-9][0-9]*\\).*/\\1/p')
						  case "$line" in
						    *'"method":"initialize"'*)
						      printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"sh","version":"1"}}}\\n' "$id";;
						    *'"name":"fast"'*)
						      printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[]}}\\n' "$id";;
						  esac
						done
						""");
		return parse("""
				stdio:
				      command: [/bin/sh, "%s"]
				      environment:
				        PATH: /usr/bin:/bin
				        LOG: "%s"
				      process: shared
				""".formatted(script, log));
	}

	/** Sends a request on another thread, gives it up, and returns what it threw. */
	private Throwable giveUp(McpServerPolicy target, @Nullable String session, String request) throws Exception {
		int before = this.calls.size();
		CompletableFuture<StdioResponse> call = CompletableFuture
			.supplyAsync(() -> unchecked(() -> post(target, session, "alice", request)), this.executor);
		await().until(() -> this.calls.size() > before);
		this.calls.get(this.calls.size() - 1).abort();
		try {
			call.get(10, TimeUnit.SECONDS);
			return new AssertionError("the call was answered");
		}
		catch (java.util.concurrent.ExecutionException ex) {
			return ex.getCause().getCause();
		}
	}

	private interface Exchange {

		StdioResponse run() throws IOException;

	}

	private static StdioResponse unchecked(Exchange exchange) {
		try {
			return exchange.run();
		}
		catch (IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	private StdioSessions sessions(int maxProcesses) {
		StdioSessions created = new StdioSessions(
				new StdioCommands((name) -> "marker from " + name, Path.of(".").toAbsolutePath(),
						StdioUpstream.Ulimit.NONE),
				new StdioLimits(StdioLimits.DEFAULT_MAX_LINE_BYTES, 1024, 100, Duration.ofSeconds(2)), maxProcesses,
				this.clock, new StdioEvents(this.meters, this.events::add, this.clock));
		created.start();
		this.registries.add(created);
		return created;
	}

	private void useSessions(StdioSessions sessions) {
		this.sessions = sessions;
		this.transport = new StdioTransport(sessions, Duration.ofSeconds(30), 1 << 20, ERRORS);
	}

	/** The test server with {@code more} lines in its {@code stdio} entry. */
	private static McpServerPolicy server(String more) {
		return policyOf(more).serverAt(StdioTestPolicy.PATH);
	}

	private static Policy policyOf(String more) {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		return policy("""
				stdio:
				      command: ["%s", -Xshare:auto, -XX:TieredStopAtLevel=1, -cp, "%s", %s]
				      environment:
				        MARKER: { from-env: GATEWAY_MARKER }
				      idle-timeout: 60s
				      %s""".formatted(java, System.getProperty("java.class.path"), SdkStdioServer.class.getName(),
				more));
	}

	private static McpServerPolicy parse(String stdio) {
		return StdioTestPolicy.server(stdio);
	}

	private static Policy policy(String stdio) {
		return StdioTestPolicy.parse(stdio);
	}

	private String initialize(String human) throws IOException {
		String session = post(null, human, INITIALIZE).sessionId();
		assertThat(session).isNotNull();
		return session;
	}

	private String initialized(String human) throws IOException {
		String session = initialize(human);
		assertThat(post(session, human, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").status())
			.isEqualTo(202);
		return session;
	}

	private static String call(String id, String tool, String argument) {
		String name = tool.equals("env") ? "name" : "text";
		return """
				{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"%s","arguments":{"%s":"%s"}}}"""
			.formatted(id, tool, name, argument);
	}

	private StdioResponse post(@Nullable String session, String human, String body) throws IOException {
		return post(this.server, session, human, body);
	}

	private StdioResponse post(McpServerPolicy target, @Nullable String session, String human, String body)
			throws IOException {
		return this.transport.exchange(new StdioRequest(target, human, "POST", session, this.revision,
				body.getBytes(StandardCharsets.UTF_8), this.calls::add));
	}

	private StdioResponse exchange(McpServerPolicy target, @Nullable String session, String human, String method)
			throws IOException {
		return this.transport
			.exchange(new StdioRequest(target, human, method, session, this.revision, new byte[0], this.calls::add));
	}

	private StdioResponse exchange(@Nullable String session, String human, String method, String body)
			throws IOException {
		return this.transport.exchange(new StdioRequest(this.server, human, method, session, this.revision,
				body.getBytes(StandardCharsets.UTF_8), this.calls::add));
	}

	private static JsonNode body(StdioResponse response) throws IOException {
		return JSON.readTree(response.body().readAllBytes());
	}

	private static String text(StdioResponse response) throws IOException {
		JsonNode reply = body(response);
		assertThat(reply.has("result")).as(reply.toString()).isTrue();
		return reply.at("/result/content/0/text").asString();
	}

	private static JsonNode nextEvent(BufferedReader events) throws IOException {
		for (String line = events.readLine(); line != null; line = events.readLine()) {
			if (line.startsWith("data: ")) {
				return JSON.readTree(line.substring(6));
			}
		}
		throw new IOException("the stream ended");
	}

	private List<StdioProcessEvent> ended() {
		return this.events.stream()
			.filter(StdioProcessEvent.class::isInstance)
			.map(StdioProcessEvent.class::cast)
			.filter((event) -> event.type() == StdioProcessEvent.Type.ENDED)
			.toList();
	}

}
