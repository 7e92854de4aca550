package io.github.mcpgateway.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.test.context.TestPropertySource;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.TestUpstream.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An upstream that sends the headers of a stream at once and its first event only after 3
 * s: the client has the status and headers within 200 ms, on every path a stream takes
 * (POST and GET, keyed and unkeyed, a filtered {@code tools/list}, NDJSON), and the event
 * follows unchanged when it comes.
 */
@TestPropertySource(properties = "gateway.proxy.idle-timeout=10s")
class StreamHeadersIntegrationTest extends GatewayIntegrationTest {

	private static final long QUIET_MILLIS = 3000;

	private static final Duration HEADERS_WITHIN = Duration.ofMillis(200);

	@BeforeEach
	void warmUp() {
		// The first request of a context pays for class loading and the JIT, not the
		// proxy.
		post("/mcp/test/echo", validToken(), toolCall(1, "echo"));
	}

	@ParameterizedTest(name = "keyed={0}")
	@ValueSource(booleans = { false, true })
	void postEventStreamHeadersArriveBeforeTheFirstEvent(boolean keyed) throws Exception {
		String event = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[]}}\n\n";
		upstream.reply(quietStream("text/event-stream", event));
		HttpRequest.Builder request = mcpPost(toolCall(1, "echo"));
		if (keyed) {
			request.header("Idempotency-Key", UUID.randomUUID().toString());
		}

		assertHeadersFirst(request.build(), "text/event-stream", event);
	}

	@Test
	void getStreamHeadersArriveBeforeTheFirstEvent() throws Exception {
		String event = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\n";
		upstream.reply(quietStream("text/event-stream", event));
		HttpRequest request = HttpRequest.newBuilder(uri("/mcp/test/echo"))
			.header("Authorization", "Bearer " + validToken())
			.header("Accept", "text/event-stream")
			.GET()
			.build();

		assertHeadersFirst(request, "text/event-stream", event);
		assertThat(upstream.received().get(upstream.count() - 1).method()).isEqualTo("GET");
	}

	@Test
	void filteredToolListStreamHeadersArriveBeforeTheFirstEvent() throws Exception {
		String event = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[{\"name\":\"echo\"},"
				+ "{\"name\":\"admin_reset\"}]}}\n\n";
		upstream.reply(quietStream("text/event-stream", event));

		String body = assertHeadersFirst(mcpPost("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}").build(),
				"text/event-stream", null);
		assertThat(body).contains("\"echo\"").doesNotContain("admin_reset");
	}

	@Test
	void ndjsonHeadersArriveBeforeTheFirstLine() throws Exception {
		String line = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[]}}\n";
		upstream.reply(quietStream("application/x-ndjson", line));

		assertHeadersFirst(mcpPost(toolCall(1, "echo")).header("Idempotency-Key", UUID.randomUUID().toString()).build(),
				"application/x-ndjson", line);
	}

	/** Returns the body, after checking when the status, headers and body arrived. */
	private String assertHeadersFirst(HttpRequest request, String contentType, String expectedBody) throws Exception {
		long start = System.nanoTime();
		HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
		Duration headersAfter = Duration.ofNanos(System.nanoTime() - start);
		String body;
		try (InputStream in = response.body()) {
			body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		Duration bodyAfter = Duration.ofNanos(System.nanoTime() - start);

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> type.startsWith(contentType));
		assertThat(headersAfter).as("status and headers").isLessThan(HEADERS_WITHIN);
		assertThat(bodyAfter).as("the first event waits for the upstream")
			.isGreaterThanOrEqualTo(Duration.ofMillis(QUIET_MILLIS - 100));
		if (expectedBody != null) {
			assertThat(body).isEqualTo(expectedBody);
		}
		return body;
	}

	private HttpRequest.Builder mcpPost(String json) {
		return HttpRequest.newBuilder(uri("/mcp/test/echo"))
			.header("Authorization", "Bearer " + validToken())
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString(json));
	}

	private static Reply quietStream(String contentType, String body) {
		return (request, exchange) -> {
			exchange.getResponseHeaders().add("Content-Type", contentType);
			exchange.sendResponseHeaders(200, 0);
			try (OutputStream out = exchange.getResponseBody()) {
				out.flush();
				pause();
				out.write(body.getBytes(StandardCharsets.UTF_8));
			}
		};
	}

	private static void pause() throws IOException {
		try {
			Thread.sleep(QUIET_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
	}

}
