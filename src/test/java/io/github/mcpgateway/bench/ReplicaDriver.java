package io.github.mcpgateway.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.support.GatewayReplica;

/**
 * The client side of {@code bench/replicas.sh}: {@code workers} MCP clients that run
 * sessions through the load balancer, half of their calls keyed ({@code notes_create},
 * whose side effect is countable) and half unkeyed ({@code echo}), while the script kills
 * a replica, restarts Redis and restarts every replica. A keyed call is retried like a
 * careful client (same key, same request, honouring {@code Retry-After}) until it has a
 * final answer. A session makes 40 calls, {@code -Dthink.millis} (25) apart, and keeps a
 * server-to-client stream open meanwhile; {@code workers / 2} more clients keep one
 * session each for the whole run (a call every 200 ms), so that sessions and their
 * streams live through every replica's restart. The script names the current phase in
 * {@code phaseFile} and ends the run by creating {@code stopFile}. Then the driver counts
 * every operation's executions in the upstream's notes and checks the invariants; it
 * prints them and exits 1 if one breaks. Not a test. Arguments: baseUrl tokenUrl
 * phaseFile stopFile workers.
 */
public final class ReplicaDriver {

	private static final Pattern CODE = Pattern.compile("\"data\":\\{\"code\":\"([a-z_]+)\"");

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String PATH = "/mcp/bench/notes";

	private static final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	/** Answers by phase and kind: "phase kind status code" to count. */
	private static final Map<String, LongAdder> answers = new ConcurrentHashMap<>();

	private static final ConcurrentLinkedQueue<Operation> operations = new ConcurrentLinkedQueue<>();

	private static final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();

	private static final LongAdder sessions = new LongAdder();

	private static volatile String phase = "steady";

	private ReplicaDriver() {
	}

	public static void main(String[] args) throws Exception {
		String base = args[0];
		String tokenUrl = args[1];
		Path phaseFile = Path.of(args[2]);
		Path stopFile = Path.of(args[3]);
		int workers = Integer.parseInt(args[4]);
		Thread phases = new Thread(() -> followPhase(phaseFile, stopFile), "phase");
		phases.setDaemon(true);
		phases.start();
		int longLived = Math.max(1, workers / 2);
		ExecutorService pool = Executors.newFixedThreadPool(workers + longLived);
		long thinkMillis = Long.getLong("think.millis", 25);
		for (int w = 0; w < workers; w++) {
			String token = get(tokenUrl + "?human=replica-" + w + "&team=demo&ttlSeconds=7200").trim();
			int worker = w;
			pool.submit(() -> {
				int round = 0;
				try {
					while (!Files.exists(stopFile)) {
						runSession(base, token, worker + "-" + round++, stopFile, thinkMillis, 40);
					}
				}
				catch (RuntimeException ex) {
					violations.add("worker " + worker + " failed: " + ex);
				}
			});
		}
		for (int l = 0; l < longLived; l++) {
			String token = get(tokenUrl + "?human=replica-long-" + l + "&team=demo&ttlSeconds=7200").trim();
			int client = l;
			pool.submit(() -> {
				int round = 0;
				try {
					while (!Files.exists(stopFile)) {
						runSession(base, token, "long-" + client + "-" + round++, stopFile, 200, Integer.MAX_VALUE);
					}
				}
				catch (RuntimeException ex) {
					violations.add("long-lived client " + client + " failed: " + ex);
				}
			});
		}
		pool.shutdown();
		while (!pool.awaitTermination(1, TimeUnit.SECONDS)) {
			// Waits for the script's stop file and the workers' last operations.
		}
		phase = "check";
		String mainToken = get(tokenUrl + "?human=replica-check&team=demo&ttlSeconds=600").trim();
		System.exit(report(base, mainToken) ? 0 : 1);
	}

	private static void runSession(String base, String token, String name, Path stopFile, long thinkMillis, int calls) {
		String session = initialize(base, token);
		if (session == null) {
			sleep(250);
			return;
		}
		sessions.increment();
		EventStream stream = new EventStream(base, token, session);
		try {
			for (int i = 0; i < calls && !Files.exists(stopFile); i++) {
				sleep(thinkMillis);
				if (i % 2 == 0) {
					keyed(base, token, session, name + "-" + i);
				}
				else if (!unkeyed(base, token, session)) {
					return;
				}
			}
		}
		finally {
			stream.close();
		}
		Answer deleted = send(HttpRequest.newBuilder(URI.create(base + PATH))
			.header("Authorization", "Bearer " + token)
			.header("Mcp-Session-Id", session)
			.DELETE());
		count("delete", deleted);
	}

	/** A new session, or {@code null} when initialize failed (counted). */
	private static String initialize(String base, String token) {
		Answer answer = post(base, token, null, null,
				"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\","
						+ "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
						+ "\"clientInfo\":{\"name\":\"replica-driver\",\"version\":\"1\"}}}");
		count("initialize", answer);
		if (answer.status != 200 || answer.session == null) {
			return null;
		}
		Answer initialized = post(base, token, answer.session, null,
				"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
		count("initialized", initialized);
		return answer.session;
	}

	/** One keyed operation, retried until it has a final answer. */
	private static void keyed(String base, String token, String session, String name) {
		Operation operation = new Operation("op-" + name + "-" + UUID.randomUUID(), UUID.randomUUID().toString(),
				session);
		operations.add(operation);
		String body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"notes_create\","
				+ "\"arguments\":{\"text\":\"" + operation.id + "\"}}}";
		long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
		while (System.nanoTime() < deadline) {
			Answer answer = post(base, token, session, operation.key, body);
			count("keyed", answer);
			operation.answers.add(answer);
			switch (answer.outcome()) {
				case "200", "409 idempotency_outcome_unknown", "409 idempotency_response_not_replayable" -> {
					return;
				}
				case "404 session_not_found" -> {
					violations
						.add("live session " + session + " got session_not_found (keyed, phase " + answer.phase + ")");
					return;
				}
				case "409 idempotency_key_conflict" -> {
					violations.add(operation.id + ": a retry of the identical request got a conflict");
					return;
				}
				default -> sleep((answer.retryAfter > 0) ? answer.retryAfter * 1000L : 250);
			}
		}
		violations.add(operation.id + ": no final answer within 90 s");
	}

	/** One unkeyed call; returns whether the session goes on. */
	private static boolean unkeyed(String base, String token, String session) {
		Answer answer = post(base, token, session, null, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\","
				+ "\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"hello\"}}}");
		count("unkeyed", answer);
		if (answer.outcome().equals("404 session_not_found")) {
			violations.add("live session " + session + " got session_not_found (unkeyed, phase " + answer.phase + ")");
			return false;
		}
		return true;
	}

	private static boolean report(String base, String token) {
		String session = null;
		for (int i = 0; i < 20 && session == null; i++) {
			session = initialize(base, token);
		}
		Answer list = post(base, token, session, null, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\","
				+ "\"params\":{\"name\":\"notes_list\",\"arguments\":{}}}");
		String notes = list.text().orElseThrow(() -> new IllegalStateException("notes_list failed: " + list.body));
		Map<String, Integer> executions = new ConcurrentHashMap<>();
		for (String note : notes.split("\n")) {
			executions.merge(note, 1, Integer::sum);
		}
		int ok = 0;
		int unknown = 0;
		int notReplayable = 0;
		int retried = 0;
		int replayed = 0;
		for (Operation operation : operations) {
			int runs = executions.getOrDefault(operation.id, 0);
			if (runs > 1) {
				violations.add(operation.id + " ran " + runs + " times");
			}
			if (operation.answers.size() > 1) {
				retried++;
			}
			List<Answer> successes = operation.answers.stream().filter((a) -> a.status == 200).toList();
			replayed += (int) successes.stream().filter((a) -> a.replayed).count();
			String last = operation.answers.isEmpty() ? "none"
					: operation.answers.get(operation.answers.size() - 1).outcome();
			if (!successes.isEmpty()) {
				ok++;
				if (runs != 1) {
					violations.add(operation.id + " answered 200 but ran " + runs + " times");
				}
				if (successes.stream().map(Answer::text).distinct().count() != 1) {
					violations.add(operation.id + ": a replay differs from the first answer");
				}
				if (!last.equals("200")) {
					violations.add(operation.id + ": answered 200, then " + last);
				}
			}
			else if (last.equals("409 idempotency_outcome_unknown")) {
				unknown++;
			}
			else if (last.equals("409 idempotency_response_not_replayable")) {
				notReplayable++;
			}
		}
		System.out.println();
		System.out.println("Answers (phase, call, status and code: count)");
		new TreeMap<>(answers).forEach((key, count) -> System.out.printf("  %-70s %d%n", key, count.sum()));
		System.out.println();
		System.out.printf(
				"Sessions: %d; keyed operations: %d (ok %d, outcome_unknown %d, not_replayable %d);"
						+ " retried: %d; replayed answers: %d%n",
				sessions.sum(), operations.size(), ok, unknown, notReplayable, retried, replayed);
		int maxRuns = operations.stream().mapToInt((o) -> executions.getOrDefault(o.id, 0)).max().orElse(0);
		System.out.println("Invariants:");
		System.out.printf("  executions per key, max: %d (must be <= 1)%n", maxRuns);
		long notFound = answers.entrySet()
			.stream()
			.filter((e) -> e.getKey().endsWith("404 session_not_found"))
			.mapToLong((e) -> e.getValue().sum())
			.sum();
		System.out.printf("  session_not_found for a live session: %d (must be 0)%n", notFound);
		List<String> redisErrors = new ArrayList<>();
		answers.forEach((key, count) -> {
			// The demo's Java SDK server sends no headers on GET before its first event,
			// so
			// a stream with nothing to say is answered 504 upstream_timeout after the
			// gateway's first-byte timeout (60 s), whatever Redis does; the client
			// reopens
			// it. Counted, not charged to the Redis restart.
			if (key.startsWith("redis-restart ") && !key.endsWith(" 200") && !key.endsWith(" 202")
					&& !key.equals("redis-restart stream 504 upstream_timeout")
					&& !key.endsWith("503 session_store_unavailable") && !key.endsWith("503 idempotency_unavailable")) {
				redisErrors.add(key + ": " + count.sum());
			}
		});
		long redisBudget = answers.entrySet()
			.stream()
			.filter((e) -> e.getKey().startsWith("redis-restart ") && e.getKey().contains(" 503 "))
			.mapToLong((e) -> e.getValue().sum())
			.sum();
		System.out.printf("  Redis restart: %d answers 503 with a documented code; others: %s (must be none)%n",
				redisBudget, redisErrors);
		redisErrors.forEach((error) -> violations.add("during the Redis restart: " + error));
		System.out.printf("  every retry follows the stored outcome: %s%n",
				violations.stream()
					.noneMatch((v) -> v.contains("replay") || v.contains("then") || v.contains("conflict")) ? "yes"
							: "NO");
		if (violations.isEmpty()) {
			System.out.println("All invariants hold.");
			return true;
		}
		System.out.println("VIOLATIONS:");
		violations.stream().limit(50).forEach((v) -> System.out.println("  " + v));
		return false;
	}

	private static void count(String kind, Answer answer) {
		answers.computeIfAbsent(answer.phase + " " + kind + " " + answer.outcome(), (k) -> new LongAdder()).increment();
	}

	private static Answer post(String base, String token, String session, String key, String body) {
		return send(GatewayReplica.post(URI.create(base + PATH), token, session, key, body));
	}

	/** Sends; the answer is counted in the phase it came in. */
	private static Answer send(HttpRequest.Builder request) {
		try {
			HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
					HttpResponse.BodyHandlers.ofString());
			return new Answer(phase, response.statusCode(), response.body(),
					response.headers().firstValue("Mcp-Session-Id").orElse(null),
					response.headers().firstValue("Idempotency-Replayed").isPresent(),
					response.headers().firstValue("Retry-After").map(Integer::parseInt).orElse(0));
		}
		catch (IOException ex) {
			return new Answer(phase, -1, ex.getClass().getSimpleName(), null, false, 0);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return new Answer(phase, -1, "interrupted", null, false, 0);
		}
	}

	private static String get(String url) throws IOException, InterruptedException {
		return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body();
	}

	private static void followPhase(Path phaseFile, Path stopFile) {
		while (!Files.exists(stopFile)) {
			try {
				if (Files.exists(phaseFile)) {
					phase = Files.readString(phaseFile).trim();
				}
			}
			catch (IOException ex) {
				// Being replaced: read it next time.
			}
			sleep(50);
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * The session's server-to-client stream ({@code GET}), kept open like an SDK client
	 * does: when it ends while the session is live, it is opened again after 1 s (the
	 * TypeScript SDK's first reconnection delay).
	 */
	private static final class EventStream implements AutoCloseable {

		private final Thread thread;

		private volatile boolean open = true;

		private volatile java.io.InputStream body;

		EventStream(String base, String token, String session) {
			this.thread = new Thread(() -> {
				while (this.open) {
					try {
						HttpResponse<java.io.InputStream> response = http
							.send(HttpRequest.newBuilder(URI.create(base + PATH))
								.header("Authorization", "Bearer " + token)
								.header("Mcp-Session-Id", session)
								.header("Accept", "text/event-stream")
								.GET()
								.build(), HttpResponse.BodyHandlers.ofInputStream());
						this.body = response.body();
						if (response.statusCode() != 200) {
							String text = new String(this.body.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
							Answer answer = new Answer(phase, response.statusCode(), text, null, false, 0);
							count("stream", answer);
							if (answer.outcome().equals("404 session_not_found")) {
								violations.add("live session " + session + " got session_not_found (stream, phase "
										+ answer.phase + ")");
								return;
							}
						}
						else {
							count("stream", new Answer(phase, 200, "", null, false, 0));
							this.body.transferTo(java.io.OutputStream.nullOutputStream());
						}
					}
					catch (IOException ex) {
						// The stream broke: reopened below, as a client would.
					}
					catch (InterruptedException ex) {
						return;
					}
					if (this.open) {
						count("stream-ended", new Answer(phase, 200, "", null, false, 0));
						sleep(1000);
					}
				}
			}, "stream-" + session);
			this.thread.setDaemon(true);
			this.thread.start();
		}

		@Override
		public void close() {
			this.open = false;
			java.io.InputStream current = this.body;
			if (current != null) {
				try {
					current.close();
				}
				catch (IOException ex) {
					// Closing.
				}
			}
			this.thread.interrupt();
		}

	}

	/** One keyed operation and every answer its attempts got. */
	private record Operation(String id, String key, String session, List<Answer> answers) {

		Operation(String id, String key, String session) {
			this(id, key, session, new ArrayList<>());
		}

	}

	/** One HTTP answer; status -1 is a connection failure. */
	private record Answer(String phase, int status, String body, String session, boolean replayed, int retryAfter) {

		/** "200", or the status and the gateway's error code (or "-" for none). */
		String outcome() {
			if (this.status == 200 || this.status == 202) {
				return Integer.toString(this.status);
			}
			Matcher code = CODE.matcher(this.body);
			return this.status + " " + (code.find() ? code.group(1) : (this.status == -1) ? this.body : "-");
		}

		/** The tool result's text, from a JSON reply or the event stream's response. */
		Optional<String> text() {
			List<String> documents = this.body.startsWith("{") ? List.of(this.body)
					: this.body.lines()
						.filter((line) -> line.startsWith("data:"))
						.map((line) -> line.substring(5).strip())
						.toList();
			for (String document : documents) {
				try {
					JsonNode text = json.readTree(document).path("result").path("content").path(0).path("text");
					if (text.isString()) {
						return Optional.of(text.asString());
					}
				}
				catch (JacksonException ex) {
					// Not a JSON-RPC response: the next event.
				}
			}
			return Optional.empty();
		}

	}

}
