package io.github.mcpgateway.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An MCP server whose one task store every caller shares, the worst case for task
 * isolation: it knows nothing of who calls (the gateway removes credentials), lists every
 * task to everyone, answers every task id, and broadcasts every task's status on every
 * stream. It speaks both task shapes: 2025-11-25 ({@code params.task}, nested
 * {@code result.task}, {@code tasks/result}, {@code tasks/list},
 * {@code notifications/tasks/status}) and the 2026-07-28 extension
 * ({@code resultType: "task"}, {@code tasks/update}, {@code subscriptions/listen},
 * {@code notifications/tasks}). A task completes {@code arguments.ms} after its creation
 * (300 ms by default) with the text {@code done:<tool>}, unless cancelled.
 *
 * <p>
 * Calls answer JSON unless the request carries {@code X-Test-Reply: sse}. A GET with
 * {@code Last-Event-ID} (a resumed stream) replays the answer to a {@code tasks/list}.
 * Every request is recorded ({@link #received()}), so a test can prove one never reached
 * it.
 */
public final class TestTaskUpstream {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpServer server;

	private final List<Received> received = new CopyOnWriteArrayList<>();

	private final Map<String, Task> tasks = new ConcurrentHashMap<>();

	private TestTaskUpstream() {
		this.server = TestUpstream.serve("test-task-upstream", this::handle);
	}

	public static TestTaskUpstream start() {
		return new TestTaskUpstream();
	}

	public String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + "/mcp";
	}

	public void stop() {
		this.server.stop(0);
	}

	/** Forgets requests and tasks. */
	public void reset() {
		this.received.clear();
		this.tasks.clear();
	}

	public List<Received> received() {
		return List.copyOf(this.received);
	}

	/** The requests of {@code method} that reached the upstream. */
	public List<Received> received(String method) {
		return this.received.stream().filter((request) -> method.equals(request.method())).toList();
	}

	/** Tasks created, by id. */
	public Map<String, Task> tasks() {
		return Map.copyOf(this.tasks);
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			byte[] body;
			try (InputStream in = exchange.getRequestBody()) {
				body = in.readAllBytes();
			}
			if ("GET".equals(exchange.getRequestMethod())) {
				this.received.add(new Received("GET", null, null));
				if (exchange.getRequestHeaders().getFirst("Last-Event-ID") != null) {
					// A resumed stream replays what the stream carried after that event:
					// here, the answer to an earlier tasks/list.
					ObjectNode replayed = json.createObjectNode().put("jsonrpc", "2.0").put("id", "listed");
					replayed.set("result", taskList(null));
					sse(exchange, List.of(json.writeValueAsString(replayed)));
					return;
				}
				sse(exchange, statusNotifications("notifications/tasks/status", null));
				return;
			}
			JsonNode request = json.readTree(body);
			String method = request.path("method").asString(null);
			JsonNode params = request.path("params");
			this.received.add(new Received(method, params.path("taskId").asString(null), request));
			if (method == null) {
				TestUpstream.send(exchange, 202, null, new byte[0]);
				return;
			}
			ObjectNode result = answer(method, params);
			if (result == null) {
				reply(exchange, error(request.get("id"), -32602, "Task not found"), false, List.of());
				return;
			}
			if ("subscriptions/listen".equals(method)) {
				ObjectNode ack = json.createObjectNode()
					.put("jsonrpc", "2.0")
					.put("method", "notifications/subscriptions/acknowledged");
				ack.putObject("params").set("notifications", params.path("notifications"));
				List<String> events = new ArrayList<>();
				events.add(json.writeValueAsString(ack));
				events.addAll(statusNotifications("notifications/tasks", null));
				sse(exchange, events);
				return;
			}
			List<String> before = "tasks/result".equals(method)
					? statusNotifications("notifications/tasks/status", params.path("taskId").asString()) : List.of();
			ObjectNode response = json.createObjectNode().put("jsonrpc", "2.0");
			response.set("id", request.get("id"));
			response.set("result", result);
			reply(exchange, response, "sse".equals(exchange.getRequestHeaders().getFirst("X-Test-Reply")), before);
		}
	}

	/** The result of a request, {@code null} for an unknown task. */
	private ObjectNode answer(String method, JsonNode params) throws IOException {
		switch (method) {
			case "tools/call" -> {
				boolean legacy = params.path("task").isObject();
				boolean extension = params.path("_meta")
					.path("io.modelcontextprotocol/clientCapabilities")
					.path("extensions")
					.has("io.modelcontextprotocol/tasks");
				String tool = params.path("name").asString();
				if (!legacy && !extension) {
					return text("done:" + tool);
				}
				long ttl = params.path("task").path("ttl").asLong(60_000);
				Task task = new Task(UUID.randomUUID().toString(), tool, legacy, ttl,
						Instant.now().plusMillis(params.path("arguments").path("ms").asLong(300)));
				this.tasks.put(task.id(), task);
				if (legacy) {
					ObjectNode result = json.createObjectNode();
					result.set("task", task.json());
					return result;
				}
				return task.json().put("resultType", "task");
			}
			case "tasks/get", "tasks/cancel", "tasks/update", "tasks/result" -> {
				Task task = this.tasks.get(params.path("taskId").asString(""));
				if (task == null) {
					return null;
				}
				if ("tasks/cancel".equals(method)) {
					task.cancelled = true;
					return task.legacy() ? task.json() : json.createObjectNode().put("resultType", "complete");
				}
				if ("tasks/update".equals(method)) {
					return json.createObjectNode().put("resultType", "complete");
				}
				if ("tasks/result".equals(method)) {
					task.awaitEnd();
					ObjectNode result = text("done:" + task.tool());
					result.putObject("_meta")
						.putObject("io.modelcontextprotocol/related-task")
						.put("taskId", task.id());
					return result;
				}
				ObjectNode got = task.json();
				if (!task.legacy() && "completed".equals(task.status())) {
					got.set("result", text("done:" + task.tool()));
				}
				return got;
			}
			case "tasks/list" -> {
				return taskList(params.path("cursor").asString(null));
			}
			case "initialize" -> {
				ObjectNode result = json.createObjectNode().put("protocolVersion", "2025-11-25");
				result.putObject("capabilities")
					.putObject("tasks")
					.putObject("requests")
					.putObject("tools")
					.putObject("call");
				result.putObject("serverInfo").put("name", "test-task-upstream").put("version", "1");
				return result;
			}
			default -> {
				return json.createObjectNode();
			}
		}
	}

	/**
	 * A page of two of every caller's tasks (the store is shared), after the task
	 * {@code cursor} names: as the MCP SDKs' in-memory task stores page, the next cursor
	 * is the page's last task id.
	 */
	private ObjectNode taskList(String cursor) {
		List<Task> all = new ArrayList<>(this.tasks.values());
		all.sort((a, b) -> a.id().compareTo(b.id()));
		int from = 0;
		if (cursor != null) {
			while (from < all.size() && all.get(from).id().compareTo(cursor) <= 0) {
				from++;
			}
		}
		ObjectNode result = json.createObjectNode();
		ArrayNode page = result.putArray("tasks");
		for (int i = from; i < Math.min(all.size(), from + 2); i++) {
			page.add(all.get(i).json());
		}
		if (from + 2 < all.size()) {
			result.put("nextCursor", all.get(from + 1).id());
		}
		return result;
	}

	/** A status notification of every task (or of one), as a shared store would send. */
	private List<String> statusNotifications(String method, String onlyTask) {
		List<String> events = new ArrayList<>();
		for (Task task : this.tasks.values()) {
			if (onlyTask == null || onlyTask.equals(task.id())) {
				ObjectNode notification = json.createObjectNode().put("jsonrpc", "2.0").put("method", method);
				notification.set("params", task.json());
				events.add(json.writeValueAsString(notification));
			}
		}
		// And an elicitation on behalf of every task: only the owner's may pass.
		for (Task task : this.tasks.values()) {
			if (onlyTask == null || onlyTask.equals(task.id())) {
				ObjectNode elicit = json.createObjectNode()
					.put("jsonrpc", "2.0")
					.put("id", "elicit-" + task.id())
					.put("method", "elicitation/create");
				ObjectNode elicitParams = elicit.putObject("params").put("message", "for " + task.id());
				elicitParams.putObject("_meta")
					.putObject("io.modelcontextprotocol/related-task")
					.put("taskId", task.id());
				events.add(json.writeValueAsString(elicit));
			}
		}
		return events;
	}

	private static ObjectNode text(String text) {
		ObjectNode result = json.createObjectNode();
		result.putArray("content").addObject().put("type", "text").put("text", text);
		return result;
	}

	private static ObjectNode error(JsonNode id, int code, String message) {
		ObjectNode response = json.createObjectNode().put("jsonrpc", "2.0");
		response.set("id", id);
		response.putObject("error").put("code", code).put("message", message);
		return response;
	}

	private static void reply(HttpExchange exchange, ObjectNode response, boolean sse, List<String> before)
			throws IOException {
		if (!sse) {
			TestUpstream.send(exchange, 200, "application/json", json.writeValueAsBytes(response));
			return;
		}
		List<String> events = new ArrayList<>(before);
		events.add(json.writeValueAsString(response));
		sse(exchange, events);
	}

	private static void sse(HttpExchange exchange, List<String> events) throws IOException {
		exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
		exchange.sendResponseHeaders(200, 0);
		try (OutputStream out = exchange.getResponseBody()) {
			int n = 0;
			for (String event : events) {
				out.write(("id: " + (++n) + "\ndata: " + event + "\n\n").getBytes(StandardCharsets.UTF_8));
				out.flush();
			}
		}
	}

	/**
	 * One request as the upstream saw it.
	 *
	 * @param method the JSON-RPC method, {@code GET} for a stream, {@code null} for a
	 * response
	 * @param taskId its {@code params.taskId}, if any
	 * @param message the whole message
	 */
	public record Received(String method, String taskId, JsonNode message) {
	}

	/** A task in the shared store. */
	public static final class Task {

		private final String id;

		private final String tool;

		private final boolean legacy;

		private final long ttl;

		private final Instant endsAt;

		private final CountDownLatch ended = new CountDownLatch(1);

		private volatile boolean cancelled;

		Task(String id, String tool, boolean legacy, long ttl, Instant endsAt) {
			this.id = id;
			this.tool = tool;
			this.legacy = legacy;
			this.ttl = ttl;
			this.endsAt = endsAt;
		}

		public String id() {
			return this.id;
		}

		public String tool() {
			return this.tool;
		}

		boolean legacy() {
			return this.legacy;
		}

		public boolean cancelled() {
			return this.cancelled;
		}

		public String status() {
			if (this.cancelled) {
				return "cancelled";
			}
			return Instant.now().isBefore(this.endsAt) ? "working" : "completed";
		}

		void awaitEnd() {
			long wait = this.endsAt.toEpochMilli() - System.currentTimeMillis();
			try {
				this.ended.await(Math.max(0, wait), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		ObjectNode json() {
			ObjectNode task = TestTaskUpstream.json.createObjectNode()
				.put("taskId", this.id)
				.put("status", status())
				.put("createdAt", Instant.now().toString())
				.put("lastUpdatedAt", Instant.now().toString());
			if (this.legacy) {
				task.put("ttl", this.ttl).put("pollInterval", 100);
			}
			else {
				task.put("ttlMs", this.ttl).put("pollIntervalMs", 100);
			}
			return task;
		}

	}

}
