package io.github.mcpgateway.guard;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import io.github.mcpgateway.support.GatewayReplica;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestUpstream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Graceful shutdown with an open server-to-client event stream: the stream ends at once
 * (its client reconnects elsewhere), so shutdown does not wait out its timeout, while a
 * tool call in flight still gets its reply.
 */
class ShutdownEndsEventStreamsIntegrationTest {

	private static final TestUpstream upstream = TestUpstream.start();

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final String token = TestJwts.jwt().human("alice").sign();

	@Test
	void shutdownEndsOpenGetStreamsAtOnceAndLetsAToolCallInFlightFinish() throws Exception {
		ConfigurableApplicationContext gateway = gateway();
		upstream.reply((request, exchange) -> {
			if ("GET".equals(request.method())) {
				// A stream with one event, then nothing for a minute.
				Replies.sse(List.of("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/ping\"}\n\n", ""), 60_000)
					.write(request, exchange);
			}
			else {
				Replies.silentFor(1500, Replies.jsonResult("{\"done\":true}")).write(request, exchange);
			}
		});
		HttpResponse<InputStream> stream = this.http.send(HttpRequest.newBuilder(uri(gateway))
			.header("Authorization", "Bearer " + this.token)
			.header("Accept", "text/event-stream")
			.GET()
			.build(), HttpResponse.BodyHandlers.ofInputStream());
		assertThat(stream.statusCode()).isEqualTo(200);
		InputStream events = stream.body();
		assertThat(new String(events.readNBytes(6))).isEqualTo("data: ");
		CompletableFuture<HttpResponse<String>> call = this.http.sendAsync(HttpRequest.newBuilder(uri(gateway))
			.header("Authorization", "Bearer " + this.token)
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
					+ "\"params\":{\"name\":\"echo\",\"arguments\":{}}}"))
			.build(), HttpResponse.BodyHandlers.ofString());
		Thread.sleep(300);

		long start = System.nanoTime();
		gateway.close();
		Duration shutdown = Duration.ofNanos(System.nanoTime() - start);

		assertThat(shutdown).isLessThan(Duration.ofSeconds(8));
		assertThat(drained(events)).isTrue();
		HttpResponse<String> reply = call.get();
		assertThat(reply.statusCode()).isEqualTo(200);
		assertThat(reply.body()).contains("\"done\":true");
	}

	@Test
	void shutdownEndsOpenListenStreamsAtOnce() throws Exception {
		ConfigurableApplicationContext gateway = gateway();
		upstream.reply(Replies.sse(
				List.of("data: {\"jsonrpc\":\"2.0\",\"method\":"
						+ "\"notifications/subscriptions/acknowledged\",\"params\":{\"notifications\":{}}}\n\n", ""),
				60_000));
		String meta = "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
				+ "\"io.modelcontextprotocol/clientCapabilities\":{}}";
		HttpResponse<InputStream> stream = this.http.send(HttpRequest.newBuilder(uri(gateway))
			.header("Authorization", "Bearer " + this.token)
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", "subscriptions/listen")
			.POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
					+ "\"subscriptions/listen\",\"params\":{\"_meta\":" + meta + ",\"notifications\":{}}}"))
			.build(), HttpResponse.BodyHandlers.ofInputStream());
		assertThat(stream.statusCode()).isEqualTo(200);
		InputStream events = stream.body();
		assertThat(new String(events.readNBytes(6))).isEqualTo("data: ");

		long start = System.nanoTime();
		gateway.close();
		Duration shutdown = Duration.ofNanos(System.nanoTime() - start);

		assertThat(shutdown).isLessThan(Duration.ofSeconds(8));
		assertThat(drained(events)).isTrue();
	}

	/** Whether the stream ended (cleanly or not) rather than stayed open. */
	private static boolean drained(InputStream events) {
		try (events) {
			events.readAllBytes();
			return true;
		}
		catch (IOException ex) {
			return true;
		}
	}

	private static URI uri(ConfigurableApplicationContext gateway) {
		return GatewayReplica.uri(gateway, GatewayReplica.PATH);
	}

	private static ConfigurableApplicationContext gateway() {
		return GatewayReplica.start(GatewayReplica.policy(upstream),
				Map.of("server.shutdown", "graceful", "spring.lifecycle.timeout-per-shutdown-phase", "20s"));
	}

}
