package io.github.mcpgateway.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The upstream of {@code bench/run.sh}: an MCP-shaped stub on loopback. {@code POST /mcp}
 * answers a tiny JSON-RPC result echoing the request id; {@code POST /sse} answers an
 * event stream of 5 events, the first at once, then one every 20 ms; {@code /listen} (for
 * {@code bench/floods.sh}) answers {@code initialize} with a new {@code Mcp-Session-Id},
 * other POSTs like {@code /mcp}, and holds a GET's event stream open for 60 s (a comment
 * every 5 s); {@code /catalog} (for {@code bench/virtual-lists.sh}) is a stateless MCP
 * server with {@value #CATALOG_TOOLS} tools, {@code /slow-catalog} the same answering
 * {@code tools/list} after 20 ms, and {@code GET /catalog-stats} counts the
 * {@code tools/list} requests both received. Not a test; run with
 * {@code java -cp ... io.github.mcpgateway.bench.BenchUpstream <port> [threads]}.
 */
public final class BenchUpstream {

	private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*(\"[^\"]*\"|-?\\d+)");

	private BenchUpstream() {
	}

	public static void main(String[] args) throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 1024);
		server.setExecutor(Executors.newFixedThreadPool((args.length > 1) ? Integer.parseInt(args[1]) : 32));
		server.createContext("/mcp", BenchUpstream::json);
		server.createContext("/sse", BenchUpstream::sse);
		server.createContext("/faulty", BenchUpstream::faulty);
		server.createContext("/big", BenchUpstream::big);
		server.createContext("/stats", BenchUpstream::stats);
		server.createContext("/listen", BenchUpstream::listen);
		server.createContext("/catalog", (exchange) -> catalog(exchange, 0));
		server.createContext("/slow-catalog", (exchange) -> catalog(exchange, 20));
		server.createContext("/catalog-stats", BenchUpstream::catalogStats);
		server.start();
		System.out.println("bench upstream on " + args[0]);
	}

	private static void json(HttpExchange exchange) throws IOException {
		String id = id(exchange);
		byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":[{\"type\":\"text\","
				+ "\"text\":\"ok\"}],\"isError\":false}}")
			.getBytes(StandardCharsets.UTF_8);
		replyJson(exchange, body);
	}

	/**
	 * Executions per operation (the tool argument {@code text}), in order, with their
	 * outcome.
	 */
	private static final java.util.Map<String, java.util.List<String>> executions = new java.util.concurrent.ConcurrentHashMap<>();

	private static final Pattern TEXT = Pattern.compile("\"text\"\\s*:\\s*\"([^\"]+)\"");

	/**
	 * For the soak: each call is an execution of its operation and answers at random with
	 * success (70 %), 422 (10 %), 500 (10 %) or a connection reset mid-body (10 %).
	 */
	private static void faulty(HttpExchange exchange) throws IOException {
		String body;
		try (InputStream in = exchange.getRequestBody()) {
			body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		Matcher text = TEXT.matcher(body);
		String operation = text.find() ? text.group(1) : "unnamed";
		int roll = java.util.concurrent.ThreadLocalRandom.current().nextInt(100);
		String outcome = (roll < 70) ? "ok" : (roll < 80) ? "4xx" : (roll < 90) ? "5xx" : "reset";
		executions
			.computeIfAbsent(operation, (key) -> java.util.Collections.synchronizedList(new java.util.ArrayList<>()))
			.add(outcome);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		switch (outcome) {
			case "ok" -> {
				byte[] reply = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[]}}"
					.getBytes(StandardCharsets.UTF_8);
				exchange.sendResponseHeaders(200, reply.length);
				exchange.getResponseBody().write(reply);
			}
			case "4xx" -> exchange.sendResponseHeaders(422, -1);
			case "5xx" -> exchange.sendResponseHeaders(500, -1);
			default -> {
				exchange.sendResponseHeaders(200, 1000);
				exchange.getResponseBody().write("{\"jsonrpc\"".getBytes(StandardCharsets.UTF_8));
				exchange.getResponseBody().flush();
				throw new IOException("reset by the soak upstream");
			}
		}
		exchange.close();
	}

	/**
	 * For the soak: operations executed, and violations: an operation executed again
	 * after an execution whose outcome the gateway must keep (anything but a 4xx).
	 */
	private static void stats(HttpExchange exchange) throws IOException {
		int operations = executions.size();
		long calls = executions.values().stream().mapToLong(java.util.List::size).sum();
		long violations = executions.values().stream().filter((runs) -> {
			synchronized (runs) {
				for (int i = 0; i < runs.size() - 1; i++) {
					if (!runs.get(i).equals("4xx")) {
						return true;
					}
				}
				return false;
			}
		}).count();
		long maxRuns = executions.values().stream().mapToLong(java.util.List::size).max().orElse(0);
		byte[] body = ("{\"operations\":" + operations + ",\"executions\":" + calls + ",\"maxExecutionsPerOperation\":"
				+ maxRuns + ",\"violations\":" + violations + "}")
			.getBytes(StandardCharsets.UTF_8);
		replyJson(exchange, body);
	}

	/**
	 * A JSON-RPC result of exactly 32 KiB: the largest reply the store keeps by default.
	 */
	private static void big(HttpExchange exchange) throws IOException {
		String id = id(exchange);
		String head = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"pad\":\"";
		String tail = "\"}}";
		byte[] body = (head + "x".repeat(32 * 1024 - head.length() - tail.length()) + tail)
			.getBytes(StandardCharsets.UTF_8);
		replyJson(exchange, body);
	}

	private static void replyJson(HttpExchange exchange, byte[] body) throws IOException {
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

	private static void sse(HttpExchange exchange) throws IOException {
		String id = id(exchange);
		exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
		exchange.sendResponseHeaders(200, 0);
		try (OutputStream out = exchange.getResponseBody()) {
			for (int i = 1; i <= 5; i++) {
				String data = (i < 5)
						? "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":" + i
								+ "}}"
						: "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}";
				out.write(("event: message\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
				out.flush();
				if (i < 5) {
					sleep(20);
				}
			}
		}
	}

	private static final java.util.concurrent.atomic.AtomicLong sessions = new java.util.concurrent.atomic.AtomicLong();

	private static void listen(HttpExchange exchange) throws IOException {
		if (!"GET".equals(exchange.getRequestMethod())) {
			byte[] request;
			try (InputStream in = exchange.getRequestBody()) {
				request = in.readAllBytes();
			}
			String text = new String(request, StandardCharsets.UTF_8);
			Matcher matcher = ID.matcher(text);
			String id = matcher.find() ? matcher.group(1) : "null";
			if (text.contains("\"initialize\"")) {
				exchange.getResponseHeaders().add("Mcp-Session-Id", "s-" + sessions.incrementAndGet());
			}
			replyJson(exchange,
					("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}").getBytes(StandardCharsets.UTF_8));
			return;
		}
		exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
		exchange.sendResponseHeaders(200, 0);
		try (OutputStream out = exchange.getResponseBody()) {
			for (int i = 0; i < 12; i++) {
				out.write(": open\n\n".getBytes(StandardCharsets.UTF_8));
				out.flush();
				sleep(5000);
			}
		}
		catch (IOException ex) {
			// The gateway closed the stream.
		}
	}

	private static final int CATALOG_TOOLS = 20;

	private static final java.util.concurrent.atomic.AtomicLong toolsLists = new java.util.concurrent.atomic.AtomicLong();

	/**
	 * A stateless MCP server of {@value #CATALOG_TOOLS} tools: {@code initialize}
	 * declares them, {@code tools/list} lists them (after {@code delayMillis}), a
	 * notification is accepted and anything else answers an empty result.
	 */
	private static void catalog(HttpExchange exchange, long delayMillis) throws IOException {
		String text;
		try (InputStream in = exchange.getRequestBody()) {
			text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		Matcher matcher = ID.matcher(text);
		if (!matcher.find()) {
			exchange.sendResponseHeaders(202, -1);
			exchange.close();
			return;
		}
		String result = "{}";
		if (text.contains("\"initialize\"")) {
			result = "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{\"listChanged\":true}},"
					+ "\"serverInfo\":{\"name\":\"catalog\",\"version\":\"1\"}}";
		}
		else if (text.contains("\"tools/list\"")) {
			toolsLists.incrementAndGet();
			sleep(delayMillis);
			result = catalogTools();
		}
		replyJson(exchange, ("{\"jsonrpc\":\"2.0\",\"id\":" + matcher.group(1) + ",\"result\":" + result + "}")
			.getBytes(StandardCharsets.UTF_8));
	}

	private static String catalogTools() {
		StringBuilder tools = new StringBuilder("{\"tools\":[");
		for (int i = 0; i < CATALOG_TOOLS; i++) {
			tools.append((i > 0) ? "," : "")
				.append("{\"name\":\"tool_")
				.append(i)
				.append("\",\"description\":\"Tool number ")
				.append(i)
				.append(" of the bench catalog, which does nothing.\",\"inputSchema\":{\"type\":\"object\",")
				.append("\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}}");
		}
		return tools.append("]}").toString();
	}

	private static void catalogStats(HttpExchange exchange) throws IOException {
		replyJson(exchange, ("{\"toolsLists\":" + toolsLists.get() + "}").getBytes(StandardCharsets.UTF_8));
	}

	private static String id(HttpExchange exchange) throws IOException {
		try (InputStream in = exchange.getRequestBody()) {
			Matcher matcher = ID.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
			return matcher.find() ? matcher.group(1) : "null";
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

}
