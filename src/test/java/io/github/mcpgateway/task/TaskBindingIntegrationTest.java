package io.github.mcpgateway.task;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestTaskUpstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Task isolation against an upstream whose one task store every caller shares
 * ({@link TestTaskUpstream}): alice and bob are both granted the tool; each may reach
 * only the tasks of the calls they made, in both task shapes (2025-11-25 and the
 * 2026-07-28 extension), and nothing of a refused task request reaches the upstream.
 */
@ExtendWith(OutputCaptureExtension.class)
class TaskBindingIntegrationTest extends GatewayIntegrationTest {

	private static final TestTaskUpstream tasks = TestTaskUpstream.start();

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String PATH = "/mcp/test/tasks";

	private final String alice = TestJwts.jwt().human("alice").sign();

	private final String bob = TestJwts.jwt().human("bob").sign();

	@Autowired
	private MeterRegistry meterRegistry;

	@AfterAll
	static void stopUpstream() {
		tasks.stop();
	}

	@BeforeEach
	void serveTheTaskUpstream() {
		tasks.reset();
		writePolicy("uid-tasks", "[research, other]");
	}

	@ParameterizedTest
	@ValueSource(strings = { "json", "sse" })
	void taskOfOnePrincipalIsRefusedToAnotherAndNothingReachesTheUpstream(String reply) {
		String taskId = createLegacy(this.alice, reply);

		for (String method : List.of("tasks/get", "tasks/result", "tasks/cancel")) {
			HttpResponse<String> refused = post(PATH, this.bob, taskRequest(7, method, taskId));
			assertThat(refused.statusCode()).as(method).isEqualTo(200);
			assertThat(body(refused).at("/error/code").asInt()).isEqualTo(-32602);
			assertThat(body(refused).at("/error/data/code").asString()).isEqualTo("task_not_found");
			assertThat(body(refused).at("/id").asInt()).isEqualTo(7);
		}
		assertThat(tasks.received().stream().filter((r) -> r.method().startsWith("tasks/"))).isEmpty();

		HttpResponse<String> got = post(PATH, this.alice, taskRequest(8, "tasks/get", taskId));
		assertThat(got.statusCode()).isEqualTo(200);
		assertThat(body(got).at("/result/taskId").asString()).isEqualTo(taskId);
		HttpResponse<String> result = post(PATH, this.alice, taskRequest(9, "tasks/result", taskId));
		assertThat(body(result).at("/result/content/0/text").asString()).isEqualTo("done:research");
		assertThat(tasks.tasks().get(taskId).cancelled()).isFalse();
	}

	@Test
	void extensionTaskOfOnePrincipalIsRefusedToAnotherAndItsOwnerPollsItWithMcpName() {
		String taskId = createWithExtension(this.alice);

		for (String method : List.of("tasks/get", "tasks/update", "tasks/cancel")) {
			HttpResponse<String> refused = post(PATH, this.bob, taskRequest(7, method, taskId), "Mcp-Method", method,
					"Mcp-Name", taskId);
			assertThat(refused.statusCode()).as(method).isEqualTo(200);
			assertThat(body(refused).at("/error/data/code").asString()).isEqualTo("task_not_found");
		}
		assertThat(tasks.received().stream().filter((r) -> r.method().startsWith("tasks/"))).isEmpty();

		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			HttpResponse<String> got = post(PATH, this.alice, taskRequest(8, "tasks/get", taskId), "Mcp-Method",
					"tasks/get", "Mcp-Name", taskId);
			assertThat(got.statusCode()).isEqualTo(200);
			assertThat(body(got).at("/result/status").asString()).isEqualTo("completed");
			assertThat(body(got).at("/result/result/content/0/text").asString()).isEqualTo("done:research");
		});
		assertThat(tasks.tasks().get(taskId).cancelled()).isFalse();
	}

	@Test
	void cancelByTheOwnerReachesTheUpstream() {
		String taskId = createLegacy(this.alice, "json");

		HttpResponse<String> cancelled = post(PATH, this.alice, taskRequest(3, "tasks/cancel", taskId));

		assertThat(cancelled.statusCode()).isEqualTo(200);
		assertThat(tasks.tasks().get(taskId).cancelled()).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "no-such-task", "" })
	void forgedTaskIdIsRefusedAsUnknown(String taskId) {
		HttpResponse<String> refused = post(PATH, this.alice, taskRequest(4, "tasks/get", taskId));

		assertThat(refused.statusCode()).isEqualTo(200);
		assertThat(body(refused).at("/error/data/code").asString()).isEqualTo("task_not_found");
		assertThat(tasks.received()).isEmpty();
	}

	@Test
	void taskRequestWithoutATaskIdIsRefusedAsUnknown() {
		HttpResponse<String> refused = post(PATH, this.alice,
				"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tasks/get\",\"params\":{}}");

		assertThat(refused.statusCode()).isEqualTo(200);
		assertThat(body(refused).at("/error/data/code").asString()).isEqualTo("task_not_found");
	}

	@Test
	void bindingExpiresWithTheTasksOwnTtl() {
		String taskId = createLegacy(this.alice, "json", 300);
		assertThat(post(PATH, this.alice, taskRequest(5, "tasks/get", taskId)).statusCode()).isEqualTo(200);

		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			HttpResponse<String> expired = post(PATH, this.alice, taskRequest(6, "tasks/get", taskId));
			assertThat(expired.statusCode()).isEqualTo(200);
			assertThat(body(expired).at("/error/data/code").asString()).isEqualTo("task_not_found");
		});
	}

	@Test
	void ownersTaskRequestIsRefusedOnceTheToolsGrantIsRemoved() {
		String taskId = createLegacy(this.alice, "json");
		int before = tasks.received().size();

		writePolicy("uid-tasks", "[other]");
		HttpResponse<String> refused = post(PATH, this.alice, taskRequest(5, "tasks/get", taskId));

		assertThat(refused.statusCode()).isEqualTo(200);
		assertThat(body(refused).at("/error/data/code").asString()).isEqualTo("tool_not_granted");
		assertThat(tasks.received()).hasSize(before);
	}

	@Test
	void tasksOfAServerRecreatedWithANewUidAreUnknown() {
		String taskId = createLegacy(this.alice, "json");

		writePolicy("uid-tasks-recreated", "[research, other]");
		HttpResponse<String> refused = post(PATH, this.alice, taskRequest(5, "tasks/get", taskId));

		assertThat(refused.statusCode()).isEqualTo(200);
		assertThat(body(refused).at("/error/data/code").asString()).isEqualTo("task_not_found");
	}

	@Test
	void taskListShowsOnlyTheCallersTasksPageByPage() {
		List<String> alices = List.of(createLegacy(this.alice, "json"), createLegacy(this.alice, "json"));
		List<String> bobs = List.of(createLegacy(this.bob, "json"), createLegacy(this.bob, "json"),
				createLegacy(this.bob, "json"));

		assertThat(listAll(this.alice)).containsExactlyInAnyOrderElementsOf(alices);
		assertThat(listAll(this.bob)).containsExactlyInAnyOrderElementsOf(bobs);
	}

	@Test
	void taskListCursorNeverCarriesAnUpstreamTaskIdAndFollowingItListsTheCallersTasks() {
		List<String> alices = List.of(createLegacy(this.alice, "json"));
		List<String> bobs = List.of(createLegacy(this.bob, "json"), createLegacy(this.bob, "json"),
				createLegacy(this.bob, "json"));

		List<String> cursors = new ArrayList<>();
		assertThat(listAll(this.alice, cursors)).containsExactlyElementsOf(alices);

		// The upstream pages four tasks two at a time: its cursor is the first page's
		// last
		// task id, whosever it is (issue 36). The caller gets a sealed one.
		assertThat(cursors).hasSize(1);
		for (String taskId : tasks.tasks().keySet()) {
			assertThat(cursors.get(0)).doesNotContain(taskId);
		}
		for (String bobsTask : bobs) {
			assertThat(cursors.get(0)).doesNotContain(bobsTask);
		}
		List<TestTaskUpstream.Received> listed = tasks.received("tasks/list");
		assertThat(listed).hasSize(2);
		assertThat(listed.get(1).message().at("/params/cursor").asString()).as("the upstream gets its own cursor back")
			.isIn(tasks.tasks().keySet());
	}

	@ParameterizedTest
	@ValueSource(strings = { "bobs", "upstream", "made-up", "number" })
	void taskListCursorNotSealedForTheCallerIsRefusedAndNothingReachesTheUpstream(String which) {
		createLegacy(this.bob, "json");
		createLegacy(this.bob, "json");
		createLegacy(this.bob, "json");
		List<String> bobsCursors = new ArrayList<>();
		listAll(this.bob, bobsCursors);
		assertThat(bobsCursors).isNotEmpty();
		String upstreamCursor = tasks.received("tasks/list").get(1).message().at("/params/cursor").asString();
		int listedBefore = tasks.received("tasks/list").size();
		String cursor = switch (which) {
			case "bobs" -> "\"" + bobsCursors.get(0) + "\"";
			case "upstream" -> "\"" + upstreamCursor + "\"";
			case "made-up" -> "\"c1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"";
			default -> "2";
		};

		HttpResponse<String> refused = post(PATH, this.alice,
				"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tasks/list\",\"params\":{\"cursor\":" + cursor + "}}");

		assertThat(refused.statusCode()).isEqualTo(200);
		assertThat(body(refused).at("/error/code").asInt()).isEqualTo(-32602);
		assertThat(body(refused).at("/error/data/code").asString()).isEqualTo("task_cursor_invalid");
		assertThat(body(refused).at("/id").asInt()).isEqualTo(5);
		assertThat(tasks.received("tasks/list")).hasSize(listedBefore);
	}

	@Test
	void resumedStreamReplayingATaskListShowsOnlyTheCallersTasksAndASealedCursor() {
		String alicesTask = createLegacy(this.alice, "json");
		List<String> bobs = List.of(createLegacy(this.bob, "json"), createLegacy(this.bob, "json"),
				createLegacy(this.bob, "json"));

		HttpResponse<String> stream = send(java.net.http.HttpRequest.newBuilder(uri(PATH))
			.timeout(Duration.ofSeconds(10))
			.header("Authorization", "Bearer " + this.alice)
			.header("Accept", "text/event-stream")
			.header("Last-Event-ID", "7")
			.GET()
			.build());

		assertThat(stream.statusCode()).isEqualTo(200);
		for (String bobsTask : bobs) {
			assertThat(stream.body()).doesNotContain(bobsTask);
		}
		JsonNode replayed = json.readTree(stream.body()
			.lines()
			.filter((line) -> line.startsWith("data: "))
			.findFirst()
			.orElseThrow()
			.substring(6));
		assertThat(replayed.at("/result/tasks").values()).extracting((task) -> task.get("taskId").asString())
			.isSubsetOf(alicesTask);
		assertThat(replayed.at("/result/nextCursor").asString()).startsWith("c1.");
	}

	@Test
	void taskListThatCannotBeReadIsWithheld() {
		// Not one JSON object: the list cannot be filtered exactly.
		HttpResponse<String> withheld = post("/mcp/test/echo", validToken(),
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/list\"}");
		// The recording upstream answers {"ok":true}: no tasks member, passes as is.
		assertThat(withheld.statusCode()).isEqualTo(200);

		upstream.reply(io.github.mcpgateway.support.Replies.raw(200, "application/json",
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tasks\":{}}}"));
		HttpResponse<String> unfilterable = post("/mcp/test/echo", validToken(),
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/list\"}");
		assertThat(unfilterable.statusCode()).isEqualTo(502);
		assertThat(body(unfilterable).at("/error/data/code").asString()).isEqualTo("upstream_reply_unfilterable");
	}

	@Test
	void streamsCarryOnlyTheCallersTaskNotificationsAndElicitations() {
		String alicesTask = createLegacy(this.alice, "json");
		String bobsTask = createLegacy(this.bob, "json");

		HttpResponse<String> result = post(PATH, this.alice, taskRequest(9, "tasks/result", alicesTask), "X-Test-Reply",
				"sse");
		assertThat(result.body()).contains("notifications/tasks/status")
			.contains("elicit-" + alicesTask)
			.contains("done:research");

		HttpResponse<String> stream = send(java.net.http.HttpRequest.newBuilder(uri(PATH))
			.timeout(Duration.ofSeconds(10))
			.header("Authorization", "Bearer " + this.alice)
			.header("Accept", "text/event-stream")
			.GET()
			.build());
		assertThat(stream.statusCode()).isEqualTo(200);
		assertThat(stream.body()).contains(alicesTask).doesNotContain(bobsTask);
	}

	@Test
	void listenSubscribesOnlyToTheCallersTasksAndRelaysOnlyTheirNotifications() {
		String alicesTask = createWithExtension(this.alice);
		String bobsTask = createWithExtension(this.bob);

		HttpResponse<String> listen = post(PATH, this.alice, """
				{"jsonrpc":"2.0","id":11,"method":"subscriptions/listen","params":{"_meta":%s,
				"notifications":{"taskIds":["%s","%s"]}}}""".formatted(extensionMeta(), alicesTask, bobsTask),
				"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "subscriptions/listen");

		assertThat(listen.statusCode()).isEqualTo(200);
		JsonNode forwarded = tasks.received("subscriptions/listen").get(0).message();
		assertThat(forwarded.at("/params/notifications/taskIds").values()).extracting(JsonNode::asString)
			.containsExactly(alicesTask);
		assertThat(listen.body()).contains("notifications/tasks").contains(alicesTask).doesNotContain(bobsTask);
	}

	@Test
	void keyedTaskCreationRetriedGetsTheSameTaskAndCreatesNoSecond() {
		String call = "{\"jsonrpc\":\"2.0\",\"id\":21,\"method\":\"tools/call\",\"params\":{\"name\":\"research\","
				+ "\"arguments\":{},\"task\":{\"ttl\":600000}}}";
		String key = java.util.UUID.randomUUID().toString();

		HttpResponse<String> first = post(PATH, this.alice, call, "Idempotency-Key", key);
		HttpResponse<String> retry = post(PATH, this.alice, call, "Idempotency-Key", key);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(body(retry).at("/result/task/taskId").asString())
			.isEqualTo(body(first).at("/result/task/taskId").asString());
		assertThat(tasks.tasks()).hasSize(1);
		assertThat(tasks.received("tools/call")).hasSize(1);
	}

	@Test
	void keyedExtensionTaskCreationRetriedWithANewIdGetsTheSameTaskAndCreatesNoSecond() {
		// A 2026-07-28 client that lost its connection after asking for a task retries
		// with a new JSON-RPC id (the revision's rule) and the key in _meta (ADR 0020).
		String key = java.util.UUID.randomUUID().toString();
		String meta = extensionMeta().replaceFirst("\\{",
				"{\"io.github.mcpgateway/idempotency-key\":\"" + key + "\",\"progressToken\":\"p-ID\",");

		HttpResponse<String> first = post(PATH, this.alice, extensionCall(31, meta.replace("ID", "31")),
				"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "research");
		HttpResponse<String> retry = post(PATH, this.alice, extensionCall(32, meta.replace("ID", "32")),
				"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "research");

		assertThat(body(first).at("/result/resultType").asString()).isEqualTo("task");
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(body(retry).get("id").asInt()).isEqualTo(32);
		assertThat(body(retry).at("/result/_meta/io.github.mcpgateway~1idempotency/replayed").asBoolean()).isTrue();
		assertThat(body(retry).at("/result/taskId").asString()).isEqualTo(body(first).at("/result/taskId").asString());
		assertThat(tasks.tasks()).hasSize(1);
		assertThat(tasks.received("tools/call")).hasSize(1);
		assertThat(tasks.received("tools/call").get(0).message().toString()).doesNotContain(key);
		// The owner then polls the task it created.
		HttpResponse<String> got = post(PATH, this.alice,
				taskRequest(33, "tasks/get", body(first).at("/result/taskId").asString()), "MCP-Protocol-Version",
				"2026-07-28", "Mcp-Method", "tasks/get", "Mcp-Name", body(first).at("/result/taskId").asString());
		assertThat(body(got).at("/result/taskId").asString()).isEqualTo(body(first).at("/result/taskId").asString());
	}

	private static String extensionCall(int id, String meta) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"research\","
				+ "\"arguments\":{\"ms\":300},\"_meta\":" + meta + "}}";
	}

	@Test
	void taskRequestsCannotBeKeyed() {
		String taskId = createLegacy(this.alice, "json");

		HttpResponse<String> refused = post(PATH, this.alice, taskRequest(3, "tasks/get", taskId), "Idempotency-Key",
				"k-1");

		assertThat(refused.statusCode()).isEqualTo(400);
		assertThat(body(refused).at("/error/data/code").asString()).isEqualTo("idempotency_unsupported_request");
	}

	@Test
	void callThatAsksForNoTaskBindsNothing() {
		HttpResponse<String> plain = post(PATH, this.alice,
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"research\"}}");

		assertThat(body(plain).at("/result/content/0/text").asString()).isEqualTo("done:research");
		assertThat(tasks.tasks()).isEmpty();
	}

	@Test
	void taskRequestsAreAuditedWithTheBoundToolAndOutcomeAndCounted(CapturedOutput output) {
		String taskId = createLegacy(this.alice, "json");
		double refusedBefore = count("not_found");

		post(PATH, this.alice, taskRequest(31, "tasks/get", taskId));
		post(PATH, this.bob, taskRequest(32, "tasks/get", taskId));

		await().atMost(Duration.ofSeconds(5))
			.until(() -> output.getOut()
				.lines()
				.filter((line) -> line.contains("\"method\":\"tasks/get\""))
				.count() >= 2);
		List<String> lines = output.getOut().lines().filter((line) -> line.contains("mcp.audit")).toList();
		assertThat(lines).anySatisfy((line) -> assertThat(line).contains("\"method\":\"tools/call\"")
			.contains("\"task\":\"created\"")
			.contains("\"task_id_hash\":\""));
		assertThat(lines).anySatisfy((line) -> assertThat(line).contains("\"method\":\"tasks/get\"")
			.contains("\"human\":\"alice\"")
			.contains("\"tool\":\"research\"")
			.contains("\"task\":\"allowed\""));
		assertThat(lines).anySatisfy((line) -> assertThat(line).contains("\"method\":\"tasks/get\"")
			.contains("\"human\":\"bob\"")
			.contains("\"task\":\"not_found\"")
			.contains("\"error_code\":\"task_not_found\"")
			.contains("\"status\":200")
			.contains("\"dispatched\":false"));
		assertThat(output.getAll()).doesNotContain(taskId);
		assertThat(count("not_found")).isEqualTo(refusedBefore + 1);
		assertThat(this.meterRegistry.get(TaskMeters.ACTIVE).gauge().value()).isGreaterThanOrEqualTo(1);
	}

	private double count(String outcome) {
		var counter = this.meterRegistry.find(TaskMeters.OUTCOMES)
			.tag("server", "tasks")
			.tag("outcome", outcome)
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	private List<String> listAll(String token) {
		return listAll(token, new ArrayList<>());
	}

	/**
	 * Every task {@code token}'s caller is shown, the cursors it was given in
	 * {@code cursors}.
	 */
	private List<String> listAll(String token, List<String> cursors) {
		List<String> ids = new ArrayList<>();
		String cursor = null;
		for (int page = 0; page < 10; page++) {
			String params = (cursor != null) ? "{\"cursor\":\"" + cursor + "\"}" : "{}";
			HttpResponse<String> listed = post(PATH, token,
					"{\"jsonrpc\":\"2.0\",\"id\":" + page + ",\"method\":\"tasks/list\",\"params\":" + params + "}");
			assertThat(listed.statusCode()).isEqualTo(200);
			body(listed).at("/result/tasks").values().forEach((task) -> ids.add(task.get("taskId").asString()));
			JsonNode next = body(listed).at("/result/nextCursor");
			if (next.isMissingNode()) {
				return ids;
			}
			cursor = next.asString();
			cursors.add(cursor);
		}
		throw new AssertionError("tasks/list did not end");
	}

	private String createLegacy(String token, String reply) {
		return createLegacy(token, reply, 600_000);
	}

	private String createLegacy(String token, String reply, long ttl) {
		HttpResponse<String> created = post(PATH, token,
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"research\","
						+ "\"arguments\":{\"ms\":300},\"task\":{\"ttl\":" + ttl + "}}}",
				"X-Test-Reply", reply);
		assertThat(created.statusCode()).isEqualTo(200);
		String body = created.body();
		if (body.startsWith("id:") || body.startsWith("data:")) {
			body = body.lines()
				.filter((line) -> line.startsWith("data: "))
				.reduce((a, b) -> b)
				.orElseThrow()
				.substring(6);
		}
		String taskId = json.readTree(body).at("/result/task/taskId").asString();
		assertThat(taskId).isNotEmpty();
		return taskId;
	}

	private String createWithExtension(String token) {
		HttpResponse<String> created = post(PATH, token,
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"research\","
						+ "\"arguments\":{\"ms\":300},\"_meta\":" + extensionMeta() + "}}",
				"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "research");
		assertThat(created.statusCode()).isEqualTo(200);
		assertThat(body(created).at("/result/resultType").asString()).isEqualTo("task");
		return body(created).at("/result/taskId").asString();
	}

	private static String extensionMeta() {
		return "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
				+ "\"io.modelcontextprotocol/clientCapabilities\":{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}}";
	}

	private static String taskRequest(int id, String method, String taskId) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{\"taskId\":\"" + taskId
				+ "\"}}";
	}

	private static JsonNode body(HttpResponse<String> response) {
		return json.readTree(response.body());
	}

	private void writePolicy(String uid, String tools) {
		policy.write(policy.standard() + """
				  - namespace: test
				    name: tasks
				    uid: %s
				    upstream: %s
				    path: %s
				    grants:
				      - principal: { team: blue }
				        tools: %s
				""".formatted(uid, tasks.url(), PATH, tools));
		this.policyReloader.reloadNow();
	}

}
