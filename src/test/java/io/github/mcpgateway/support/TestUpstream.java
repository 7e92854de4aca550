package io.github.mcpgateway.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

/**
 * A real HTTP upstream on loopback that records every request it receives and answers
 * with a programmable {@link Reply}. By default it answers a JSON-RPC result that echoes
 * the request id.
 */
public final class TestUpstream {

	private final HttpServer server;

	private final List<Received> received = new CopyOnWriteArrayList<>();

	private volatile Reply reply = Replies.jsonResult("{\"ok\":true}");

	private TestUpstream() {
		this.server = serve("test-upstream", this::handle);
	}

	/**
	 * A started HTTP server on a free loopback port that hands every request to
	 * {@code handler} on daemon threads named {@code threadName}.
	 */
	static HttpServer serve(String threadName, HttpHandler handler) {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
			server.setExecutor(Executors.newCachedThreadPool((task) -> {
				Thread thread = new Thread(task, threadName);
				thread.setDaemon(true);
				return thread;
			}));
			server.createContext("/", handler);
			server.start();
			return server;
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	public static TestUpstream start() {
		return new TestUpstream();
	}

	public String url(String path) {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + path;
	}

	/** Forgets what was received and goes back to the default reply. */
	public void reset() {
		this.received.clear();
		this.reply = Replies.jsonResult("{\"ok\":true}");
	}

	public void reply(Reply reply) {
		this.reply = reply;
	}

	public List<Received> received() {
		return List.copyOf(this.received);
	}

	public int count() {
		return this.received.size();
	}

	private void handle(HttpExchange exchange) throws IOException {
		byte[] body;
		try (InputStream in = exchange.getRequestBody()) {
			body = in.readAllBytes();
		}
		Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		exchange.getRequestHeaders().forEach((name, values) -> headers.put(name, List.copyOf(values)));
		Received request = new Received(exchange.getRequestMethod(), exchange.getRequestURI().toString(), headers,
				body);
		this.received.add(request);
		try {
			this.reply.write(request, exchange);
		}
		finally {
			exchange.close();
		}
	}

	/** One request as the upstream saw it. */
	public record Received(String method, String uri, Map<String, List<String>> headers, byte[] body) {

		public String bodyText() {
			return new String(this.body, StandardCharsets.UTF_8);
		}

		public String header(String name) {
			List<String> values = this.headers.get(name);
			return (values != null && !values.isEmpty()) ? values.get(0) : null;
		}

		/** The JSON-RPC id as raw JSON text, or {@code null}. */
		public String jsonRpcId() {
			var matcher = java.util.regex.Pattern.compile("\"id\"\\s*:\\s*(\"[^\"]*\"|-?\\d+)").matcher(bodyText());
			return matcher.find() ? matcher.group(1) : "null";
		}

	}

	/** What the upstream answers. */
	@FunctionalInterface
	public interface Reply {

		void write(Received request, HttpExchange exchange) throws IOException;

	}

	static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
		if (contentType != null) {
			exchange.getResponseHeaders().add("Content-Type", contentType);
		}
		exchange.sendResponseHeaders(status, (body.length == 0) ? -1 : body.length);
		if (body.length > 0) {
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		}
	}

}
