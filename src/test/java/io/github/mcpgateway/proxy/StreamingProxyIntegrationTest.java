package io.github.mcpgateway.proxy;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import io.github.mcpgateway.support.GatewayIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

class StreamingProxyIntegrationTest extends GatewayIntegrationTest {

	@Test
	void eventStreamIsRelayedEventByEventAndUnchanged() throws Exception {
		List<String> events = new ArrayList<>();
		for (int i = 1; i <= 5; i++) {
			events
				.add("id: " + i + "\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
						+ "\"params\":{\"progress\":" + i + "}}\n\n");
		}
		List<Long> writtenAt = new CopyOnWriteArrayList<>();
		upstream.reply((request, exchange) -> {
			exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
			exchange.sendResponseHeaders(200, 0);
			try (OutputStream out = exchange.getResponseBody()) {
				for (String event : events) {
					out.write(event.getBytes(StandardCharsets.UTF_8));
					out.flush();
					writtenAt.add(System.nanoTime());
					sleep(300);
				}
			}
		});

		HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(uri("/mcp/test/echo"))
			.header("Authorization", "Bearer " + validToken())
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString(toolCall(1, "echo")))
			.build(), HttpResponse.BodyHandlers.ofInputStream());

		StringBuilder body = new StringBuilder();
		Long firstEventAt = null;
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = reader.readLine()) != null) {
				if (firstEventAt == null && line.startsWith("data:")) {
					firstEventAt = System.nanoTime();
				}
				body.append(line).append('\n');
			}
		}
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(firstEventAt).isNotNull();
		assertThat(writtenAt).hasSize(5);
		assertThat(firstEventAt).as("first event arrives before the upstream writes its last one")
			.isLessThan(writtenAt.get(4));
		assertThat(Duration.ofNanos(firstEventAt - writtenAt.get(0))).isLessThan(Duration.ofMillis(250));
		assertThat(body.toString()).isEqualTo(String.join("", events));
	}

	@Test
	void aQuietStreamCutByTheIdleTimeoutAfterItsHeadersEndsTheClientsStream() throws Exception {
		upstream.reply((request, exchange) -> {
			exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
			exchange.sendResponseHeaders(200, 0);
			exchange.getResponseBody().flush();
			sleep(4000);
		});
		long start = System.nanoTime();
		HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(uri("/mcp/test/echo"))
			.header("Authorization", "Bearer " + validToken())
			.header("Accept", "text/event-stream")
			.GET()
			.build(), HttpResponse.BodyHandlers.ofInputStream());
		Duration headersAfter = Duration.ofNanos(System.nanoTime() - start);

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(headersAfter).isLessThan(Duration.ofMillis(1000));
		try (InputStream body = response.body()) {
			body.readAllBytes();
		}
		catch (java.io.IOException ex) {
			// The gateway ends the stream abruptly: either way the client's stream ends.
		}
		// The idle timeout of this suite is 1.5 s: the stream ends then, not when the
		// upstream gives up.
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(1400),
				Duration.ofMillis(3500));
	}

	@Test
	void aStreamWhoseClientLeftDropsItsUpstreamConnectionInsteadOfReadingItForever() throws Exception {
		java.util.concurrent.CompletableFuture<Long> upstreamWriteFailedAt = new java.util.concurrent.CompletableFuture<>();
		upstream.reply((request, exchange) -> {
			exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
			exchange.sendResponseHeaders(200, 0);
			OutputStream out = exchange.getResponseBody();
			long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			try {
				// Keep-alives well inside the idle timeout: only the client's leaving can
				// end this stream.
				while (System.nanoTime() < deadline) {
					out.write(": keep-alive\n\n".getBytes(StandardCharsets.UTF_8));
					out.flush();
					sleep(200);
				}
			}
			catch (java.io.IOException ex) {
				upstreamWriteFailedAt.complete(System.nanoTime());
			}
		});
		HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(uri("/mcp/test/echo"))
			.header("Authorization", "Bearer " + validToken())
			.header("Accept", "text/event-stream")
			.GET()
			.build(), HttpResponse.BodyHandlers.ofInputStream());
		InputStream body = response.body();
		assertThat(body.read(new byte[8])).isPositive();

		body.close();
		long clientLeftAt = System.nanoTime();

		long failedAt = upstreamWriteFailedAt.get(8, java.util.concurrent.TimeUnit.SECONDS);
		assertThat(Duration.ofNanos(failedAt - clientLeftAt)).isLessThan(Duration.ofSeconds(3));
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
