package io.github.mcpgateway.support;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.github.mcpgateway.support.TestUpstream.Reply;

/** Ready-made upstream behaviours for {@link TestUpstream}. */
public final class Replies {

	private Replies() {
	}

	/** 200 JSON-RPC response with the request's id and {@code result}. */
	public static Reply jsonResult(String result) {
		return (request, exchange) -> TestUpstream.send(exchange, 200, "application/json",
				("{\"jsonrpc\":\"2.0\",\"id\":" + request.jsonRpcId() + ",\"result\":" + result + "}")
					.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Answers {@code initialize} with a new session id {@code <prefix>-<n>} in
	 * {@code Mcp-Session-Id}, and everything else like {@link #jsonResult(String)}.
	 */
	public static Reply sessions(String prefix) {
		java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
		Reply otherwise = jsonResult("{}");
		return (request, exchange) -> {
			if (request.bodyText().contains("\"method\":\"initialize\"")) {
				exchange.getResponseHeaders().add("Mcp-Session-Id", prefix + "-" + next.incrementAndGet());
				jsonResult("{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{}}").write(request, exchange);
			}
			else {
				otherwise.write(request, exchange);
			}
		};
	}

	/** A fixed body, byte for byte. */
	public static Reply raw(int status, String contentType, String body) {
		return (request, exchange) -> TestUpstream.send(exchange, status, contentType,
				body.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * An event stream of {@code events} (each a complete event text),
	 * {@code spacingMillis} apart.
	 */
	public static Reply sse(List<String> events, long spacingMillis) {
		return (request, exchange) -> {
			exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
			exchange.sendResponseHeaders(200, 0);
			try (OutputStream out = exchange.getResponseBody()) {
				for (int i = 0; i < events.size(); i++) {
					if (i > 0) {
						sleep(spacingMillis);
					}
					out.write(events.get(i).getBytes(StandardCharsets.UTF_8));
					out.flush();
				}
			}
		};
	}

	/** Announces a body of 1000 bytes, sends 10 and closes the connection. */
	public static Reply resetMidBody() {
		return (request, exchange) -> {
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, 1000);
			OutputStream out = exchange.getResponseBody();
			out.write("{\"jsonrpc\"".getBytes(StandardCharsets.UTF_8));
			out.flush();
			throw new java.io.IOException("connection reset by the test upstream");
		};
	}

	/**
	 * Sends the head and a first byte, then one byte every {@code millis}: slower than an
	 * idle timeout.
	 */
	public static Reply trickle(long millis) {
		return (request, exchange) -> {
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, 0);
			OutputStream out = exchange.getResponseBody();
			for (char c : "{\"jsonrpc\":\"2.0\"}".toCharArray()) {
				out.write(c);
				out.flush();
				sleep(millis);
			}
			out.close();
		};
	}

	/**
	 * Two events of an event stream, then the connection drops in the middle of the
	 * third.
	 */
	public static Reply sseCut() {
		return (request, exchange) -> {
			exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
			// A declared length the stream never reaches: the connection ends mid-event,
			// as a crashed upstream's would (a chunked stream would be closed cleanly on
			// exit).
			exchange.sendResponseHeaders(200, 4096);
			OutputStream out = exchange.getResponseBody();
			out.write("data: {\"a\":1}\n\ndata: {\"a\":2}\n\ndata: {\"a\"".getBytes(StandardCharsets.UTF_8));
			out.flush();
			throw new java.io.IOException("stream cut by the test upstream");
		};
	}

	/** A gzip-encoded JSON-RPC result. */
	public static Reply gzipped(String result) {
		return (request, exchange) -> {
			java.io.ByteArrayOutputStream zipped = new java.io.ByteArrayOutputStream();
			try (java.util.zip.GZIPOutputStream gzip = new java.util.zip.GZIPOutputStream(zipped)) {
				gzip.write(("{\"jsonrpc\":\"2.0\",\"id\":" + request.jsonRpcId() + ",\"result\":" + result + "}")
					.getBytes(StandardCharsets.UTF_8));
			}
			exchange.getResponseHeaders().add("Content-Encoding", "gzip");
			TestUpstream.send(exchange, 200, "application/json", zipped.toByteArray());
		};
	}

	/** A 200 JSON reply of exactly {@code size} bytes. */
	public static Reply sized(int size) {
		return (request, exchange) -> {
			String head = "{\"jsonrpc\":\"2.0\",\"id\":" + request.jsonRpcId() + ",\"result\":{\"pad\":\"";
			String tail = "\"}}";
			String body = head + "x".repeat(size - head.length() - tail.length()) + tail;
			TestUpstream.send(exchange, 200, "application/json", body.getBytes(StandardCharsets.UTF_8));
		};
	}

	/** Says nothing for {@code millis}, then answers {@code then}. */
	public static Reply silentFor(long millis, Reply then) {
		return (request, exchange) -> {
			sleep(millis);
			then.write(request, exchange);
		};
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
