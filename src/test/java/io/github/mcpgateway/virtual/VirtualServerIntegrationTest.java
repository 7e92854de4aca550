package io.github.mcpgateway.virtual;

import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;

import io.github.mcpgateway.audit.GatewayMeters;
import io.github.mcpgateway.demo.DemoMcpServer;
import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A virtual server over two Java SDK servers (one with sessions and event streams, one
 * stateless with JSON replies), through the real chain: one session for the client, the
 * members' lists merged under their prefixes, each call decided by its member's rules.
 */
class VirtualServerIntegrationTest extends GatewayIntegrationTest {

	private static final String PATH = "/mcp/test/workspace";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final String token = TestJwts.jwt().human("vera-" + UUID.randomUUID()).sign();

	@Autowired
	private MeterRegistry meters;

	@BeforeEach
	void virtualServer() {
		workspace("", """
				  - server: test/sdk-stream
				    prefix: stream
				  - server: test/sdk-json
				    prefix: json
				    tools: [echo, "notes_*"]
				""", "");
	}

	/**
	 * Loads the standard policy with {@code servers} added, and the virtual server
	 * {@code test/workspace} on {@link #PATH} with {@code members} and then {@code rest}
	 * (its own fields, indented as its members' key).
	 */
	private void workspace(String servers, String members, String rest) {
		policy.write(policy.standard() + servers + """
				virtual-servers:
				  - namespace: test
				    name: workspace
				    uid: uid-workspace
				    path: /mcp/test/workspace
				    members:
				""" + members.indent(4) + rest.indent(4));
		this.policyReloader.reloadNow();
	}

	@Test
	void initializeOpensOneSessionThatNamesTheVirtualServer() {
		HttpResponse<String> response = post(PATH, this.token, initialize());

		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.headers().firstValue("Mcp-Session-Id")).isPresent();
		JsonNode result = JSON.readTree(response.body()).path("result");
		assertThat(result.path("serverInfo").path("name").asString()).isEqualTo("test/workspace");
		assertThat(result.path("protocolVersion").asString()).isEqualTo("2025-06-18");
		assertThat(result.path("capabilities").has("tools")).isTrue();
	}

	@Test
	void toolsListMergesTheMembersListsUnderTheirPrefixesAsTheirGrantsFilterThem() {
		String session = session(this.token);

		HttpResponse<String> response = post(PATH, this.token, jsonRpc(2, "tools/list", "{}"), "Mcp-Session-Id",
				session);

		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(names(response)).containsExactly("stream_echo", "stream_notes_create", "stream_notes_list",
				"json_echo", "json_notes_create", "json_notes_list");
	}

	@Test
	void toolsCallReachesTheMemberItsPrefixNamesWithTheMembersOwnToolName() {
		String session = session(this.token);

		HttpResponse<String> stream = post(PATH, this.token, call(3, "stream_echo", "hello stream"), "Mcp-Session-Id",
				session);
		HttpResponse<String> json = post(PATH, this.token, call(4, "json_echo", "hello json"), "Mcp-Session-Id",
				session);

		assertThat(stream.statusCode()).isEqualTo(200);
		assertThat(stream.body()).contains("\"id\":3").contains("hello stream");
		assertThat(json.statusCode()).isEqualTo(200);
		assertThat(json.body()).contains("\"id\":4").contains("hello json");
	}

	@Test
	void aToolTheMembersGrantsRefuseIsRefusedThroughTheVirtualServerAsDirectly() {
		String session = session(this.token);
		String direct = initialize("/mcp/test/sdk-stream", this.token);

		HttpResponse<String> virtual = post(PATH, this.token, call(5, "stream_admin_reset", "x"), "Mcp-Session-Id",
				session);
		HttpResponse<String> member = post("/mcp/test/sdk-stream", this.token, call(5, "admin_reset", "x"),
				"Mcp-Session-Id", direct);

		assertThat(code(virtual)).isEqualTo("tool_not_granted").isEqualTo(code(member));
		assertThat(virtual.statusCode()).isEqualTo(member.statusCode());
	}

	/**
	 * A member's condition reads the member's own tool name and the original arguments,
	 * and its limit counts calls through the virtual server and direct calls in one
	 * bucket: through the virtual server, the same answers as direct.
	 */
	@Test
	void aMembersConditionAndLimitHoldThroughTheVirtualServerAsDirectly() {
		workspace("""
				  - namespace: test
				    name: guarded
				    uid: uid-guarded
				    upstream: %s
				    path: /mcp/test/guarded
				    grants:
				      - tools: [echo]
				        when: 'tool == "echo" && arguments.text != "forbidden"'
				    limits:
				      - name: two-echoes
				        tools: [echo]
				        tokens: 2
				        period: 1h
				""".formatted(sdkStreamServer.url()), """
				  - server: test/guarded
				    prefix: guarded
				""", "");
		String session = session(this.token);
		String direct = initialize("/mcp/test/guarded", this.token);

		HttpResponse<String> deniedVirtual = post(PATH, this.token, call(30, "guarded_echo", "forbidden"),
				"Mcp-Session-Id", session);
		HttpResponse<String> deniedDirect = post("/mcp/test/guarded", this.token, call(30, "echo", "forbidden"),
				"Mcp-Session-Id", direct);
		HttpResponse<String> first = post(PATH, this.token, call(31, "guarded_echo", "one"), "Mcp-Session-Id", session);
		HttpResponse<String> second = post("/mcp/test/guarded", this.token, call(32, "echo", "two"), "Mcp-Session-Id",
				direct);
		HttpResponse<String> third = post(PATH, this.token, call(33, "guarded_echo", "three"), "Mcp-Session-Id",
				session);

		assertThat(code(deniedVirtual)).isEqualTo("tool_arguments_denied").isEqualTo(code(deniedDirect));
		assertThat(first.body()).contains("one");
		assertThat(second.body()).contains("two");
		assertThat(code(third)).as("the member's bucket, shared with direct calls, is empty").isEqualTo("rate_limited");
	}

	/**
	 * The virtual server's own limit is one budget for all its members, apart from each
	 * member's: calls to a member's own path do not spend it.
	 */
	@Test
	void aVirtualServersOwnLimitIsSharedByItsMembersAndNotSpentByDirectCalls() {
		workspaceLimitedTo("two-calls", 2, null);
		String session = session(this.token);
		String direct = initialize("/mcp/test/sdk-stream", this.token);
		for (int id = 90; id < 93; id++) {
			HttpResponse<String> member = post("/mcp/test/sdk-stream", this.token, call(id, "echo", "direct"),
					"Mcp-Session-Id", direct);
			assertThat(member.body()).as("direct calls do not spend the virtual server's limit").contains("direct");
		}

		HttpResponse<String> stream = post(PATH, this.token, call(93, "stream_echo", "one"), "Mcp-Session-Id", session);
		HttpResponse<String> json = post(PATH, this.token, call(94, "json_echo", "two"), "Mcp-Session-Id", session);
		HttpResponse<String> third = post(PATH, this.token, call(95, "stream_echo", "three"), "Mcp-Session-Id",
				session);

		assertThat(stream.body()).contains("one");
		assertThat(json.body()).contains("two");
		assertThat(code(third)).as(third.body()).isEqualTo("rate_limited");
		assertThat(data(third).path("limit").asString()).isEqualTo("two-calls");
		assertThat(data(third).path("status").asInt()).isEqualTo(429);
		assertThat(third.headers().firstValue("Retry-After")).as("an hour for two tokens").hasValue("1800");
		assertThat(this.meters.find("mcp.gateway.quota.decisions")
			.tags("server", "test/workspace", "limit", "two-calls", "outcome", "refused")
			.counter()).isNotNull();
		assertThat(post("/mcp/test/sdk-stream", this.token, call(96, "echo", "still"), "Mcp-Session-Id", direct).body())
			.contains("still");
	}

	/** A keyed retry is replayed, not run, so it spends nothing of the virtual limit. */
	@Test
	void aKeyedRetryThroughTheVirtualServerDoesNotSpendItsLimit() {
		workspaceLimitedTo("one-call", 1, null);
		String session = session(this.token);
		String key = UUID.randomUUID().toString();
		String create = call(97, "json_notes_create", key);

		HttpResponse<String> first = post(PATH, this.token, create, "Mcp-Session-Id", session, "Idempotency-Key", key);
		HttpResponse<String> retry = post(PATH, this.token, create, "Mcp-Session-Id", session, "Idempotency-Key", key);
		HttpResponse<String> other = post(PATH, this.token, call(98, "stream_echo", "other"), "Mcp-Session-Id",
				session);

		assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotency-Replayed")).as(retry.body()).hasValue("true");
		assertThat(code(other)).as("the keyed call spent the one token").isEqualTo("rate_limited");
		assertThat(data(other).path("limit").asString()).isEqualTo("one-call");
	}

	/** A virtual limit's {@code tools} are the names the client sees, with prefixes. */
	@Test
	void aVirtualLimitOnOneExposedToolDoesNotChargeTheOthers() {
		workspaceLimitedTo("one-json-echo", 1, "json_echo");
		String session = session(this.token);

		HttpResponse<String> json = post(PATH, this.token, call(100, "json_echo", "first"), "Mcp-Session-Id", session);
		HttpResponse<String> stream = post(PATH, this.token, call(101, "stream_echo", "same tool, other member"),
				"Mcp-Session-Id", session);
		HttpResponse<String> notes = post(PATH, this.token, call(102, "json_notes_list", "x"), "Mcp-Session-Id",
				session);
		HttpResponse<String> again = post(PATH, this.token, call(103, "json_echo", "again"), "Mcp-Session-Id", session);

		assertThat(json.body()).contains("first");
		assertThat(stream.body()).contains("same tool, other member");
		assertThat(notes.statusCode()).as(notes.body()).isEqualTo(200);
		assertThat(code(again)).isEqualTo("rate_limited");
		assertThat(data(again).path("limit").asString()).isEqualTo("one-json-echo");
	}

	/**
	 * The workspace over both members, with one limit of its own: {@code tokens} calls an
	 * hour per caller, of {@code tool} only when given.
	 */
	private void workspaceLimitedTo(String name, int tokens, String tool) {
		String tools = (tool != null) ? "    tools: [" + tool + "]\n" : "";
		workspace("", """
				  - server: test/sdk-stream
				    prefix: stream
				  - server: test/sdk-json
				    prefix: json
				""", """
				limits:
				  - name: %s
				    tokens: %d
				    period: 1h
				""".formatted(name, tokens) + tools);
	}

	@Test
	void aNameWithoutAMemberOrOutsideTheMembersSelectionIsUnknown() {
		String session = session(this.token);

		assertThat(code(post(PATH, this.token, call(6, "other_echo", "x"), "Mcp-Session-Id", session)))
			.isEqualTo("tool_unknown");
		assertThat(code(post(PATH, this.token, call(7, "json_admin_reset", "x"), "Mcp-Session-Id", session)))
			.isEqualTo("tool_unknown");
		assertThat(code(post(PATH, this.token, call(8, "echo", "x"), "Mcp-Session-Id", session)))
			.isEqualTo("tool_unknown");
	}

	@Test
	void aSessionIsItsCallersOnly() {
		String session = session(this.token);
		String other = TestJwts.jwt().human("mallory-" + UUID.randomUUID()).sign();

		HttpResponse<String> stolen = post(PATH, other, jsonRpc(9, "tools/list", "{}"), "Mcp-Session-Id", session);
		HttpResponse<String> none = post(PATH, this.token, jsonRpc(10, "tools/list", "{}"));

		assertThat(stolen.statusCode()).isEqualTo(404);
		assertThat(code(stolen)).isEqualTo("session_not_found");
		assertThat(none.statusCode()).isEqualTo(400);
		assertThat(code(none)).isEqualTo("session_id_missing");
	}

	@Test
	void aKeyedRetryThroughTheVirtualServerRunsTheToolOnce() {
		String session = session(this.token);
		String key = UUID.randomUUID().toString();
		String create = call(11, "json_notes_create", key);

		HttpResponse<String> first = post(PATH, this.token, create, "Mcp-Session-Id", session, "Idempotency-Key", key);
		HttpResponse<String> retry = post(PATH, this.token, create, "Mcp-Session-Id", session, "Idempotency-Key", key);

		assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotency-Replayed")).as(retry.body()).hasValue("true");
		assertThat(notes(session, "json_notes_list").split(key, -1)).as("the note was created once").hasSize(2);
	}

	@Test
	void aRetryWithTheKeyInMetaThroughTheVirtualServerReplaysTheMembersEventStreamOnce() {
		String session = session(this.token);
		String key = UUID.randomUUID().toString();
		String create = jsonRpc(21, "tools/call", "{\"name\":\"stream_notes_create\",\"arguments\":{\"text\":\"" + key
				+ "\"},\"_meta\":{\"io.github.mcpgateway/idempotency-key\":\"" + key + "\"}}");

		HttpResponse<String> first = post(PATH, this.token, create, "Mcp-Session-Id", session);
		HttpResponse<String> retry = post(PATH, this.token, create.replace("\"id\":21", "\"id\":22"), "Mcp-Session-Id",
				session);

		assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
		assertThat(retry.body()).contains("\"id\":22").contains("\"replayed\":true");
		assertThat(notes(session, "stream_notes_list").split(key, -1)).as("the note was created once").hasSize(2);
	}

	private String notes(String session, String tool) {
		return post(PATH, this.token, call(12, tool, "x"), "Mcp-Session-Id", session).body();
	}

	@Test
	void aMemberThatRestartsServesAgainWithoutTheClientInitializingAndTheOtherKeepsWorking() {
		DemoMcpServer restartable = DemoMcpServer.start(0, DemoMcpServer.Mode.STREAMABLE);
		int memberPort = restartable.port();
		workspace("""
				  - namespace: test
				    name: restartable
				    uid: uid-restartable
				    upstream: %s
				    path: /mcp/test/restartable
				    grants:
				      - tools: [echo]
				""".formatted(restartable.url()), """
				  - server: test/restartable
				    prefix: live
				  - server: test/sdk-json
				    prefix: json
				""", "");
		String session = session(this.token);
		assertThat(post(PATH, this.token, call(30, "live_echo", "before"), "Mcp-Session-Id", session).body())
			.contains("before");

		restartable.close();
		HttpResponse<String> down = post(PATH, this.token, call(31, "live_echo", "down"), "Mcp-Session-Id", session);
		HttpResponse<String> other = post(PATH, this.token, call(32, "json_echo", "other"), "Mcp-Session-Id", session);
		DemoMcpServer restarted = DemoMcpServer.start(memberPort, DemoMcpServer.Mode.STREAMABLE);
		try {
			HttpResponse<String> after = post(PATH, this.token, call(33, "live_echo", "after"), "Mcp-Session-Id",
					session);

			assertThat(code(down)).as(down.body()).startsWith("upstream_");
			assertThat(other.body()).contains("other");
			assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
			assertThat(after.body()).contains("\"id\":33").contains("after");
		}
		finally {
			restarted.close();
		}
	}

	@Test
	void theVirtualServersOwnGrantsNarrowWhatItsMembersAllow() {
		workspace("", """
				  - server: test/sdk-stream
				    prefix: stream
				  - server: test/sdk-json
				    prefix: json
				""", """
				grants:
				  - tools: ["stream_*"]
				    except: [stream_notes_create]
				""");
		String session = session(this.token);

		HttpResponse<String> list = post(PATH, this.token, jsonRpc(40, "tools/list", "{}"), "Mcp-Session-Id", session);
		HttpResponse<String> json = post(PATH, this.token, call(41, "json_echo", "x"), "Mcp-Session-Id", session);
		HttpResponse<String> excepted = post(PATH, this.token, call(42, "stream_notes_create", "x"), "Mcp-Session-Id",
				session);

		assertThat(names(list)).containsExactly("stream_echo", "stream_notes_list");
		assertThat(code(json)).isEqualTo("tool_not_granted");
		assertThat(code(excepted)).isEqualTo("tool_not_granted");
	}

	@Test
	void theClientsRoutingHeadersAndKeyStayWithTheClientsOwnRequest() {
		String session = session(this.token);

		HttpResponse<String> list = post(PATH, this.token, jsonRpc(50, "tools/list", "{}"), "Mcp-Session-Id", session,
				"Mcp-Method", "tools/list");
		HttpResponse<String> call = post(PATH, this.token, call(51, "json_echo", "named"), "Mcp-Session-Id", session,
				"Mcp-Method", "tools/call", "Mcp-Name", "json_echo");
		HttpResponse<String> keyedList = post(PATH, this.token, jsonRpc(52, "tools/list", "{}"), "Mcp-Session-Id",
				session, "Idempotency-Key", UUID.randomUUID().toString());

		assertThat(names(list)).hasSize(6);
		assertThat(call.body()).contains("named");
		assertThat(keyedList.statusCode()).isEqualTo(400);
		assertThat(code(keyedList)).isEqualTo("idempotency_unsupported_request");
	}

	@Test
	void aRoutedReplyNamesNoMemberSessionAndATokenForTheVirtualServersResourceIsAccepted() {
		String resourceToken = TestJwts.jwt()
			.human("vera-" + UUID.randomUUID())
			.audience("http://127.0.0.1:" + this.port + PATH)
			.sign();
		String session = session(resourceToken);

		HttpResponse<String> call = post(PATH, resourceToken, call(60, "stream_echo", "mine"), "Mcp-Session-Id",
				session);

		assertThat(call.body()).contains("mine");
		assertThat(call.headers().firstValue("Mcp-Session-Id")).isEmpty();
	}

	@Test
	void aRevokedSessionOrPrincipalIsRefusedByTheVirtualServerItself() {
		String session = session(this.token);
		String human = "vera-revoked-" + UUID.randomUUID();
		String revokedToken = TestJwts.jwt().human(human).sign();
		String other = session(revokedToken);

		revocations.write("{\"sessions\":[\"" + session + "\"],\"principals\":[{\"human\":\"" + human + "\"}]}");
		this.revocationSync.syncNow();
		HttpResponse<String> revokedSession = post(PATH, this.token, jsonRpc(70, "ping", "{}"), "Mcp-Session-Id",
				session);
		HttpResponse<String> revokedPrincipal = post(PATH, revokedToken, jsonRpc(71, "ping", "{}"), "Mcp-Session-Id",
				other);

		assertThat(revokedSession.statusCode()).isEqualTo(404);
		assertThat(code(revokedSession)).isEqualTo("session_not_found");
		assertThat(code(revokedPrincipal)).isEqualTo("principal_revoked");
	}

	@Test
	void aMethodNotServedYetIsAJsonRpcMethodNotFound() {
		String session = session(this.token);

		HttpResponse<String> response = post(PATH, this.token, jsonRpc(13, "subscriptions/listen", "{}"),
				"Mcp-Session-Id", session);

		assertThat(code(response)).isEqualTo("virtual_method_unsupported");
		assertThat(JSON.readTree(response.body()).path("error").path("code").asInt()).isEqualTo(-32601);
		assertThat(JSON.readTree(response.body()).path("id").asInt()).isEqualTo(13);
	}

	/**
	 * The routing headers are checked against the body on the virtual path as on a
	 * server's (2026-07-28, "Server Validation"): a client's {@code Mcp-Name} that names
	 * another tool than its body is refused before any member is asked, not rewritten.
	 */
	@Test
	void routingHeadersThatDisagreeWithTheBodyAreRefusedAsOnAServersPath() {
		String session = session(this.token);

		HttpResponse<String> name = post(PATH, this.token, call(20, "stream_echo", "x"), "Mcp-Session-Id", session,
				"Mcp-Method", "tools/call", "Mcp-Name", "stream_notes_create");
		HttpResponse<String> method = post(PATH, this.token, jsonRpc(21, "tools/list", "{}"), "Mcp-Session-Id", session,
				"Mcp-Method", "prompts/list");

		assertThat(name.statusCode()).as(name.body()).isEqualTo(400);
		assertThat(code(name)).isEqualTo("header_mismatch");
		assertThat(JSON.readTree(name.body()).path("error").path("code").asInt()).isEqualTo(-32020);
		assertThat(code(method)).isEqualTo("header_mismatch");
	}

	@Test
	void aProtocolVersionNoRevisionHasIsRefusedWith400AndNothingRuns() {
		String session = session(this.token);

		HttpResponse<String> response = post(PATH, this.token, call(22, "stream_echo", "x"), "Mcp-Session-Id", session,
				"MCP-Protocol-Version", "1999-01-01");

		assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
		assertThat(code(response)).isEqualTo("protocol_version_unsupported");
	}

	/**
	 * No session id is the client's mistake (400), not an ended session (404, which tells
	 * a client to initialize again).
	 */
	@Test
	void aRequestWithoutASessionIdIsABadRequestNotAnEndedSession() {
		HttpResponse<String> response = post(PATH, this.token, jsonRpc(23, "tools/list", "{}"));

		assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
		assertThat(code(response)).isEqualTo("session_id_missing");
		assertThat(JSON.readTree(response.body()).path("id").asInt()).isEqualTo(23);
	}

	/**
	 * The client's GET opens its stream (the members' streams merged): status and headers
	 * arrive before any event does.
	 */
	@Test
	void theClientsStreamOpensWithTheMembersStreams() throws Exception {
		String session = session(this.token);
		HttpRequest get = stream(session);

		HttpResponse<InputStream> stream = http.sendAsync(get, HttpResponse.BodyHandlers.ofInputStream())
			.get(10, TimeUnit.SECONDS);
		stream.body().close();

		assertThat(stream.statusCode()).isEqualTo(200);
		assertThat(stream.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
	}

	/**
	 * A reload that takes a member away changes the virtual server's lists: clients with
	 * a stream open are told, as a member tells of its own list changing.
	 */
	@Test
	void aReloadThatChangesTheMembersTellsTheOpenStreamsThatTheListsChanged() throws Exception {
		String session = session(this.token);
		HttpRequest get = stream(session);
		HttpResponse<Stream<String>> stream = http.sendAsync(get, HttpResponse.BodyHandlers.ofLines())
			.get(10, TimeUnit.SECONDS);
		CompletableFuture<String> told = CompletableFuture.supplyAsync(() -> stream.body()
			.filter((line) -> line.contains("notifications/tools/list_changed"))
			.findFirst()
			.orElse(""));

		workspace("", """
				  - server: test/sdk-stream
				    prefix: stream
				""", "");

		assertThat(told.get(10, TimeUnit.SECONDS)).startsWith("data: ").contains("\"jsonrpc\":\"2.0\"");
		told.cancel(true);
	}

	/**
	 * Params of the wrong shape are the client's error, answered as such, never a 500:
	 * each gets a JSON-RPC error with its id.
	 */
	@Test
	void paramsOfTheWrongShapeAreRefusedNeverAServerError() {
		String session = session(this.token);
		String[] bodies = { jsonRpc(40, "tools/list", "{\"cursor\":{\"x\":1}}"),
				jsonRpc(41, "prompts/list", "{\"cursor\":[1]}"),
				jsonRpc(42, "completion/complete", "{\"ref\":{\"type\":{\"a\":1},\"uri\":[]}}"),
				jsonRpc(43, "resources/read", "{\"uri\":{\"u\":1}}"), jsonRpc(44, "tools/call", "{\"name\":[\"x\"]}"),
				jsonRpc(45, "prompts/get", "[1,2]"), jsonRpc(46, "tasks/get", "{\"taskId\":7}") };

		for (String body : bodies) {
			HttpResponse<String> response = post(PATH, this.token, body, "Mcp-Session-Id", session);

			assertThat(response.statusCode()).as(body + " -> " + response.body()).isIn(200, 400);
			JsonNode answer = JSON.readTree(response.body());
			assertThat(answer.path("error").path("data").path("code").isString()).as(response.body()).isTrue();
			// The id, unless the message itself was refused as a server's path refuses it
			// (a tools/call whose name is not a string is not a tools/call it can read).
			assertThat(
					answer.path("id").isNull() || answer.path("id").asInt() == JSON.readTree(body).path("id").asInt())
				.as(response.body())
				.isTrue();
		}
	}

	@Test
	void aStreamWithoutAKnownSessionIsNotFound() throws Exception {
		HttpRequest get = stream("no-such-session");

		HttpResponse<String> response = send(get);

		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(code(response)).isEqualTo("session_not_found");
	}

	@Test
	void withoutATokenTheVirtualServerAsksForOne() {
		HttpResponse<String> response = post(PATH, null, initialize());

		assertThat(response.statusCode()).isEqualTo(401);
	}

	/**
	 * A member's list is kept for the client's session (issue 39, item 7): counted by the
	 * members' own request meters, a second {@code tools/list} within the TTL asks no
	 * member.
	 */
	@Test
	void aSecondListWithinTheTtlIsServedWithoutAskingTheMembersAgain() {
		String session = session(this.token);
		double before = memberToolLists();

		HttpResponse<String> first = post(PATH, this.token, jsonRpc(80, "tools/list", "{}"), "Mcp-Session-Id", session);
		double afterFirst = memberToolLists();
		HttpResponse<String> second = post(PATH, this.token, jsonRpc(81, "tools/list", "{}"), "Mcp-Session-Id",
				session);

		assertThat(afterFirst - before).as("each member asked once").isEqualTo(2.0);
		assertThat(memberToolLists()).as("no member asked again").isEqualTo(afterFirst);
		assertThat(names(second)).hasSize(6).isEqualTo(names(first));
		assertThat(JSON.readTree(second.body()).path("id").asInt()).isEqualTo(81);
	}

	/**
	 * The member's grants filter its list per caller: the list kept for one caller is
	 * never another's, and the other caller's members are asked for theirs.
	 */
	@Test
	void anotherCallersListIsNotServedFromTheFirstCallersKeptList() {
		String human = "vera-" + UUID.randomUUID();
		String vera = TestJwts.jwt().human(human).sign();
		String mallory = TestJwts.jwt().human("mallory-" + UUID.randomUUID()).sign();
		workspace("""
				  - namespace: test
				    name: picky
				    uid: uid-picky
				    upstream: %s
				    path: /mcp/test/picky
				    grants:
				      - tools: [echo]
				      - tools: ["notes_*"]
				        when: principal.human == "%s"
				""".formatted(sdkStreamServer.url(), human), """
				  - server: test/picky
				    prefix: picky
				""", "");
		String veraSession = session(vera);
		String mallorySession = session(mallory);

		HttpResponse<String> veras = post(PATH, vera, jsonRpc(82, "tools/list", "{}"), "Mcp-Session-Id", veraSession);
		double afterVera = memberToolLists("picky");
		HttpResponse<String> mallorys = post(PATH, mallory, jsonRpc(83, "tools/list", "{}"), "Mcp-Session-Id",
				mallorySession);

		assertThat(names(veras)).containsExactly("picky_echo", "picky_notes_create", "picky_notes_list");
		assertThat(names(mallorys)).containsExactly("picky_echo");
		assertThat(memberToolLists("picky")).isEqualTo(afterVera + 1);
	}

	/**
	 * A {@code subscriptions/listen} naming many URIs finds their owners with each
	 * member's resource lists read once, not once per URI: one request cannot make the
	 * virtual server ask its members thousands of times.
	 */
	@Test
	void aListenNamingManyUrisAsksEachMemberForItsResourceListsOnceAtMost() throws Exception {
		StringBuilder uris = new StringBuilder();
		for (int i = 0; i < 200; i++) {
			uris.append((i > 0) ? "," : "").append("\"x://").append(i).append('"');
		}
		double before = memberRequests("resources/list") + memberRequests("resources/templates/list");
		HttpRequest listen = HttpRequest.newBuilder(uri(PATH))
			.header("Authorization", "Bearer " + this.token)
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", "subscriptions/listen")
			.POST(HttpRequest.BodyPublishers.ofString(jsonRpc(90, "subscriptions/listen",
					"{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
							+ "\"io.modelcontextprotocol/clientCapabilities\":{}},"
							+ "\"notifications\":{\"resourceSubscriptions\":[" + uris + "]}}")))
			.build();

		HttpResponse<String> response = http.sendAsync(listen, HttpResponse.BodyHandlers.ofString())
			.get(30, TimeUnit.SECONDS);

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("notifications/subscriptions/acknowledged");
		assertThat(memberRequests("resources/list") + memberRequests("resources/templates/list") - before)
			.as("two members, two lists each at most")
			.isLessThanOrEqualTo(4.0);
	}

	/** How many {@code method} requests the two members were sent so far. */
	private double memberRequests(String method) {
		return this.meters.find(GatewayMeters.REQUESTS)
			.tag("method", method)
			.counters()
			.stream()
			.filter((counter) -> List.of("sdk-stream", "sdk-json").contains(counter.getId().getTag("server")))
			.mapToDouble(Counter::count)
			.sum();
	}

	/** The client's GET of its stream in the session {@code session}. */
	private HttpRequest stream(String session) {
		return HttpRequest.newBuilder(uri(PATH))
			.header("Authorization", "Bearer " + this.token)
			.header("Accept", "text/event-stream")
			.header("Mcp-Session-Id", session)
			.header("MCP-Protocol-Version", "2025-06-18")
			.GET()
			.build();
	}

	private double memberToolLists() {
		return memberToolLists("sdk-stream") + memberToolLists("sdk-json");
	}

	/** How many {@code tools/list} requests the member {@code server} was sent so far. */
	private double memberToolLists(String server) {
		return this.meters.find(GatewayMeters.REQUESTS)
			.tag("server", server)
			.tag("method", "tools/list")
			.counters()
			.stream()
			.mapToDouble(Counter::count)
			.sum();
	}

	private String session(String token) {
		HttpResponse<String> response = post(PATH, token, initialize());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
		assertThat(post(PATH, token, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", "Mcp-Session-Id",
				session)
			.statusCode()).isEqualTo(202);
		return session;
	}

	private static String initialize() {
		return jsonRpc(1, "initialize",
				"{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}");
	}

	private static String call(int id, String tool, String text) {
		return jsonRpc(id, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":{\"text\":\"" + text + "\"}}");
	}

	private static List<String> names(HttpResponse<String> response) {
		List<String> names = new ArrayList<>();
		for (JsonNode tool : JSON.readTree(response.body()).path("result").path("tools")) {
			names.add(tool.path("name").asString());
		}
		return names;
	}

	private static String code(HttpResponse<String> response) {
		return data(response).path("code").asString();
	}

	/** The JSON-RPC error's {@code data} of a reply, JSON or an event stream. */
	private static JsonNode data(HttpResponse<String> response) {
		String body = response.body();
		if (body.startsWith("event:") || body.startsWith("data:") || body.startsWith("id:")) {
			body = body.substring(body.indexOf("{"), body.lastIndexOf("}") + 1);
		}
		return JSON.readTree(body).path("error").path("data");
	}

}
