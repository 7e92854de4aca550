package io.github.mcpgateway.idempotency;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.github.mcpgateway.support.RawHttp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random bytes, random JSON and random headers, seeded: the gateway never answers a 5xx
 * of its own (the upstream is healthy here), and the store gains an entry only for a
 * valid keyed {@code tools/call}.
 */
class RandomInputIntegrationTest extends IdempotencyIntegrationTest {

	private static final long SEED = 424242L;

	private static final String[] METHODS = { "tools/call", "tools/list", "initialize", "ping", "", "x" };

	@Test
	void randomRequestsNeverGetAGatewayServerErrorNorCreateAnEntryUnlessValidAndKeyed() {
		Random random = new Random(SEED);
		for (int i = 0; i < 400; i++) {
			upstream.reset();
			String body = body(random);
			String key = key(random);
			int entriesBefore = this.store.stats().entries();
			HttpRequest.Builder request = HttpRequest.newBuilder(uri("/mcp/test/echo"))
				.header("Authorization", "Bearer " + this.token)
				.header("Content-Type", random.nextInt(8) == 0 ? "text/plain" : "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body));
			if (key != null) {
				request.header("Idempotency-Key", key);
			}
			if (random.nextInt(6) == 0) {
				request.header("Mcp-Method", METHODS[random.nextInt(METHODS.length)]);
			}
			HttpResponse<String> response = send(request);
			int entriesAfter = this.store.stats().entries();

			assertThat(response.statusCode()).as("seed %d sample %d body %s", SEED, i, body).isLessThan(500);
			if (entriesAfter > entriesBefore) {
				assertThat(key).as("sample %d created an entry", i).isNotNull();
				assertThat(body).contains("\"method\":\"tools/call\"");
				assertThat(response.statusCode()).isEqualTo(200);
			}
		}
	}

	@Test
	void randomRawHeaderBytesNeverGetAGatewayServerError() {
		Random random = new Random(SEED);
		for (int i = 0; i < 150; i++) {
			byte[] value = new byte[random.nextInt(40)];
			for (int b = 0; b < value.length; b++) {
				value[b] = (byte) (0x20 + random.nextInt(0xE0));
			}
			String header = new String(value, StandardCharsets.ISO_8859_1);
			String name = random.nextBoolean() ? "Idempotency-Key" : "Mcp-Session-Id";
			String response = RawHttp.exchange(this.port, RawHttp.post("/mcp/test/echo", toolCall(1, "echo"),
					"Authorization: Bearer " + this.token, name + ": " + header));
			assertThat(response).as("seed %d sample %d", SEED, i).matches("(?s)HTTP/1\\.1 [1-4]\\d\\d.*");
		}
	}

	private static String body(Random random) {
		return switch (random.nextInt(5)) {
			case 0 -> {
				byte[] bytes = new byte[random.nextInt(64)];
				random.nextBytes(bytes);
				yield new String(bytes, StandardCharsets.ISO_8859_1);
			}
			case 1 -> "{\"jsonrpc\":\"2.0\",\"id\":" + random.nextInt(5) + ",\"method\":\""
					+ METHODS[random.nextInt(METHODS.length)] + "\",\"params\":{\"name\":\"echo\",\"arguments\":{\"n\":"
					+ random.nextInt() + "}}}";
			case 2 -> "[" + toolCall(random.nextInt(9), "echo") + "]";
			case 3 -> toolCall(random.nextInt(9), random.nextBoolean() ? "echo" : "admin_reset").substring(0,
					10 + random.nextInt(60));
			default -> toolCall(random.nextInt(1000), "echo");
		};
	}

	private static String key(Random random) {
		return switch (random.nextInt(4)) {
			case 0 -> null;
			case 1 -> "";
			case 2 -> "k".repeat(1 + random.nextInt(300));
			default -> uniqueKey();
		};
	}

}
