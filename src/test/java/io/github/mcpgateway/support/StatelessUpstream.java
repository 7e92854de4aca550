package io.github.mcpgateway.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * An MCP server of the stateless revision 2026-07-28 on a plain socket, one request per
 * connection ({@code Connection: close}), so that a test sees exactly when the gateway
 * closes an exchange. Tools:
 * <ul>
 * <li>{@code echo}: a JSON result; every run is counted ({@link #runs});</li>
 * <li>{@code ask}: a multi round-trip tool: without {@code params.inputResponses} it
 * answers the interim {@code resultType: "input_required"} with a {@code requestState};
 * with them it runs (counted) and answers {@code answered:<the elicited name>};</li>
 * <li>{@code slow} ({@code arguments.ms}): sends event-stream headers at once, then stays
 * silent for {@code ms} while watching its connection: if the gateway closes it, that is
 * recorded ({@link #closed}); else it answers and is counted;</li>
 * <li>{@code silent} ({@code arguments.ms}, {@code arguments.status},
 * {@code arguments.body}): sends nothing at all for {@code ms} while watching its
 * connection (a close is recorded, {@link #closed}); then answers (counted) with a JSON
 * result printed over several lines, whose text holds a line break; with a
 * {@code status}, that status and a JSON-RPC error ({@code body: "json-rpc"}, the
 * default) or a plain text body ({@code "text"}); {@code body: "drop"} closes the
 * connection without an answer;</li>
 * <li>{@code server/discover}: the revision's discovery result, for SDK clients;</li>
 * <li>{@code subscriptions/listen}: an event stream that acknowledges, then sends an SSE
 * comment every 500 ms until its connection closes (recorded).</li>
 * </ul>
 * {@code tools/list} lists {@code echo} (whose {@code region} argument is mirrored into
 * {@code Mcp-Param-Region}), {@code ask}, {@code slow}, {@code admin_reset} and
 * {@code 天気}, marked {@code cacheScope: "public"}. Every request is recorded with its
 * headers ({@link #received}).
 */
public final class StatelessUpstream implements AutoCloseable {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final ServerSocket server;

	private final List<Received> received = new CopyOnWriteArrayList<>();

	private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

	private final List<Closed> closed = new CopyOnWriteArrayList<>();

	private StatelessUpstream() throws IOException {
		this.server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "stateless-upstream");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	public static StatelessUpstream start() {
		try {
			return new StatelessUpstream();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	public String url() {
		return "http://127.0.0.1:" + this.server.getLocalPort() + "/mcp";
	}

	public void reset() {
		this.received.clear();
		this.runs.clear();
		this.closed.clear();
	}

	public List<Received> received() {
		return List.copyOf(this.received);
	}

	/** How often the tool ran to its end. */
	public int runs(String tool) {
		AtomicInteger count = this.runs.get(tool);
		return (count != null) ? count.get() : 0;
	}

	/** Exchanges whose connection the gateway closed before they ended. */
	public List<Closed> closed() {
		return List.copyOf(this.closed);
	}

	@Override
	public void close() throws IOException {
		this.server.close();
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket socket = this.server.accept();
				Thread handler = new Thread(() -> handle(socket), "stateless-upstream-exchange");
				handler.setDaemon(true);
				handler.start();
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private void handle(Socket socket) {
		try (socket) {
			InputStream in = socket.getInputStream();
			Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
			String line = readLine(in);
			while (!(line = readLine(in)).isEmpty()) {
				int colon = line.indexOf(':');
				headers.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
			}
			byte[] body = "chunked".equalsIgnoreCase(headers.get("Transfer-Encoding")) ? chunked(in)
					: in.readNBytes(Integer.parseInt(headers.getOrDefault("Content-Length", "0")));
			JsonNode request = json.readTree(body);
			this.received.add(new Received(Map.copyOf(headers), request));
			answer(socket, request);
		}
		catch (IOException | RuntimeException ex) {
			// The gateway went away mid-exchange; nothing to answer.
		}
	}

	private void answer(Socket socket, JsonNode request) throws IOException {
		OutputStream out = socket.getOutputStream();
		String method = request.path("method").asString("");
		JsonNode params = request.path("params");
		String tool = params.path("name").asString("");
		if ("subscriptions/listen".equals(method)) {
			Instant start = Instant.now();
			head(out, "text/event-stream");
			out.write(("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\","
					+ "\"params\":{\"notifications\":{}}}\n\n")
				.getBytes(StandardCharsets.UTF_8));
			out.flush();
			try {
				while (true) {
					if (waitForClose(socket, Duration.ofMillis(500))) {
						this.closed.add(new Closed(method, start, Instant.now()));
						return;
					}
					out.write(":\n\n".getBytes(StandardCharsets.UTF_8));
					out.flush();
				}
			}
			catch (IOException ex) {
				this.closed.add(new Closed(method, start, Instant.now()));
			}
			return;
		}
		if ("server/discover".equals(method)) {
			ObjectNode discover = json.createObjectNode().put("resultType", "complete");
			discover.putArray("supportedVersions").add("2026-07-28");
			discover.putObject("capabilities").putObject("tools");
			discover.putObject("serverInfo").put("name", "stateless-upstream").put("version", "1");
			json(out, request, discover);
			return;
		}
		if ("tools/list".equals(method)) {
			ObjectNode result = json.createObjectNode()
				.put("resultType", "complete")
				.put("ttlMs", 60_000)
				.put("cacheScope", "public");
			for (String name : List.of("echo", "ask", "slow", "silent", "admin_reset", "天気")) {
				ObjectNode schema = result.withArray("tools")
					.addObject()
					.put("name", name)
					.putObject("inputSchema")
					.put("type", "object");
				if ("echo".equals(name)) {
					// Mirrored into Mcp-Param-Region (2026-07-28 x-mcp-header).
					schema.putObject("properties")
						.putObject("region")
						.put("type", "string")
						.put("x-mcp-header", "Region");
				}
			}
			json(out, request, result);
			return;
		}
		if (!"tools/call".equals(method)) {
			json(out, request, json.createObjectNode().put("resultType", "complete"));
			return;
		}
		if ("ask".equals(tool) && !params.has("inputResponses")) {
			ObjectNode interim = json.createObjectNode()
				.put("resultType", "input_required")
				.put("requestState", "state-1");
			interim.putObject("inputRequests")
				.putObject("name")
				.put("method", "elicitation/create")
				.putObject("params")
				.put("message", "Your name?");
			json(out, request, interim);
			return;
		}
		if ("silent".equals(tool)) {
			silent(socket, request);
			return;
		}
		if ("slow".equals(tool)) {
			Instant start = Instant.now();
			head(out, "text/event-stream");
			out.flush();
			if (waitForClose(socket, Duration.ofMillis(params.path("arguments").path("ms").asLong(5000)))) {
				this.closed.add(new Closed(tool, start, Instant.now()));
				return;
			}
			this.runs.computeIfAbsent(tool, (name) -> new AtomicInteger()).incrementAndGet();
			out.write(("data: " + json.writeValueAsString(response(request, text("done:slow"))) + "\n\n")
				.getBytes(StandardCharsets.UTF_8));
			out.flush();
			return;
		}
		this.runs.computeIfAbsent(tool, (name) -> new AtomicInteger()).incrementAndGet();
		String text = "ask".equals(tool)
				? "answered:" + params.path("inputResponses").path("name").path("content").path("name").asString("")
				: "done:" + tool;
		json(out, request, text(text));
	}

	private void silent(Socket socket, JsonNode request) throws IOException {
		Instant start = Instant.now();
		JsonNode arguments = request.path("params").path("arguments");
		if (waitForClose(socket, Duration.ofMillis(arguments.path("ms").asLong(5000)))) {
			this.closed.add(new Closed("silent", start, Instant.now()));
			return;
		}
		this.runs.computeIfAbsent("silent", (name) -> new AtomicInteger()).incrementAndGet();
		OutputStream out = socket.getOutputStream();
		int status = arguments.path("status").asInt(200);
		String body = arguments.path("body").asString("json-rpc");
		if ("drop".equals(body)) {
			return;
		}
		if (status == 200) {
			answer(out, 200, "application/json",
					json.writerWithDefaultPrettyPrinter().writeValueAsBytes(response(request, text("done:\nsilent"))));
		}
		else if ("text".equals(body)) {
			answer(out, status, "text/plain", "boom".getBytes(StandardCharsets.UTF_8));
		}
		else {
			ObjectNode error = json.createObjectNode().put("jsonrpc", "2.0");
			error.set("id", request.get("id"));
			error.putObject("error").put("code", -32602).put("message", "bad arguments");
			answer(out, status, "application/json", json.writeValueAsBytes(error));
		}
	}

	private static void answer(OutputStream out, int status, String contentType, byte[] body) throws IOException {
		out.write(("HTTP/1.1 " + status + " X\r\nContent-Type: " + contentType + "\r\nContent-Length: " + body.length
				+ "\r\nConnection: close\r\n\r\n")
			.getBytes(StandardCharsets.ISO_8859_1));
		out.write(body);
		out.flush();
	}

	/** Waits up to {@code time}; whether the peer closed the connection meanwhile. */
	private static boolean waitForClose(Socket socket, Duration time) throws IOException {
		socket.setSoTimeout((int) Math.max(1, time.toMillis()));
		try {
			return socket.getInputStream().read() < 0;
		}
		catch (SocketTimeoutException ex) {
			return false;
		}
		catch (IOException ex) {
			return true;
		}
	}

	private static ObjectNode text(String text) {
		ObjectNode result = json.createObjectNode().put("resultType", "complete");
		result.putArray("content").addObject().put("type", "text").put("text", text);
		return result;
	}

	private static ObjectNode response(JsonNode request, JsonNode result) {
		ObjectNode response = json.createObjectNode().put("jsonrpc", "2.0");
		response.set("id", request.get("id"));
		response.set("result", result);
		return response;
	}

	private static void json(OutputStream out, JsonNode request, JsonNode result) throws IOException {
		byte[] body = json.writeValueAsBytes(response(request, result));
		out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length
				+ "\r\nConnection: close\r\n\r\n")
			.getBytes(StandardCharsets.ISO_8859_1));
		out.write(body);
		out.flush();
	}

	private static void head(OutputStream out, String contentType) throws IOException {
		out.write(("HTTP/1.1 200 OK\r\nContent-Type: " + contentType + "\r\nX-Accel-Buffering: no\r\n"
				+ "Connection: close\r\n\r\n")
			.getBytes(StandardCharsets.ISO_8859_1));
	}

	private static byte[] chunked(InputStream in) throws IOException {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		int size;
		while ((size = Integer.parseInt(readLine(in).split(";")[0].trim(), 16)) > 0) {
			body.write(in.readNBytes(size));
			readLine(in);
		}
		readLine(in);
		return body.toByteArray();
	}

	private static String readLine(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = in.read()) >= 0 && b != '\n') {
			if (b != '\r') {
				line.write(b);
			}
		}
		if (b < 0 && line.size() == 0) {
			throw new IOException("connection closed");
		}
		return line.toString(StandardCharsets.UTF_8);
	}

	/**
	 * One request as the upstream saw it.
	 *
	 * @param headers its headers (names case-insensitive)
	 * @param message its JSON-RPC message
	 */
	public record Received(Map<String, String> headers, JsonNode message) {

		public String method() {
			return this.message.path("method").asString("");
		}

		public boolean hasHeader(String name) {
			return this.headers.keySet()
				.stream()
				.anyMatch((header) -> header.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT)));
		}

	}

	/**
	 * An exchange the gateway ended early.
	 *
	 * @param what the tool or method
	 * @param started when the upstream began it
	 * @param closedAt when it saw the connection closed
	 */
	public record Closed(String what, Instant started, Instant closedAt) {

		public Duration after() {
			return Duration.between(this.started, this.closedAt);
		}

	}

}
