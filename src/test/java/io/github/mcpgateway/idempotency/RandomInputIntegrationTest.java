package io.github.mcpgateway.idempotency;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.github.mcpgateway.support.RawHttp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random bytes, random JSON and random headers: the gateway never answers a 5xx of its
 * own (the upstream is healthy here), and the store gains an entry only for a valid keyed
 * {@code tools/call}. Each run draws a new seed, printed with every failure; run one
 * again with {@code -Drandom-input.seed=N}.
 */
class RandomInputIntegrationTest extends IdempotencyIntegrationTest {

	private static final long SEED = Long.getLong("random-input.seed", new Random().nextLong());

	/**
	 * Byte sequences that are not UTF-8: overlong, surrogate, past U+10FFFF, truncated.
	 */
	private static final byte[][] INVALID_UTF_8 = { { (byte) 0xC0, (byte) 0xAF },
			{ (byte) 0xE0, (byte) 0x80, (byte) 0xAF }, { (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80 },
			{ (byte) 0xED, (byte) 0xA0, (byte) 0x80 }, { (byte) 0xFF }, { (byte) 0xC3, 0x28 },
			{ (byte) 0xE2, (byte) 0x82 }, { (byte) 0x80 } };

	private static final String[] NUMBERS = { "1e99999999999999999999", "1E+2147483648", "-1e-99999999999", "1e1001",
			"1e300", "-0.0", "1E+1000", "9".repeat(5000), "9".repeat(100), "0.1" };

	private static final String[] METHODS = { "tools/call", "tools/list", "initialize", "ping", "", "x" };

	@Test
	void randomRequestsNeverGetAGatewayServerErrorNorCreateAnEntryUnlessValidAndKeyed() {
		Random random = new Random(SEED);
		for (int i = 0; i < 400; i++) {
			upstream.reset();
			byte[] body = body(random);
			String key = key(random);
			int entriesBefore = this.store.stats().entries();
			HttpRequest.Builder request = HttpRequest.newBuilder(uri("/mcp/test/echo"))
				.header("Authorization", "Bearer " + this.token)
				.header("Content-Type", random.nextInt(8) == 0 ? "text/plain" : "application/json")
				.POST(HttpRequest.BodyPublishers.ofByteArray(body));
			if (key != null) {
				request.header("Idempotency-Key", key);
			}
			if (random.nextInt(6) == 0) {
				request.header("Mcp-Method", METHODS[random.nextInt(METHODS.length)]);
			}
			HttpResponse<String> response = send(request);
			int entriesAfter = this.store.stats().entries();

			String text = new String(body, StandardCharsets.ISO_8859_1);
			String sample = "seed %d sample %d body %s".formatted(SEED, i, abbreviate(text));
			assertThat(response.statusCode()).as(sample).isLessThan(500);
			if (entriesAfter > entriesBefore) {
				assertThat(key).as("%s created an entry", sample).isNotNull();
				assertThat(text).as(sample).contains("\"method\":\"tools/call\"");
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

	private static byte[] body(Random random) {
		return switch (random.nextInt(12)) {
			case 0 -> {
				byte[] bytes = new byte[random.nextInt(64)];
				random.nextBytes(bytes);
				yield bytes;
			}
			case 1 -> utf8("{\"jsonrpc\":\"2.0\",\"id\":" + random.nextInt(5) + ",\"method\":\""
					+ METHODS[random.nextInt(METHODS.length)] + "\",\"params\":{\"name\":\"echo\",\"arguments\":{\"n\":"
					+ random.nextInt() + "}}}");
			case 2 -> utf8("[" + toolCall(random.nextInt(9), "echo") + "]");
			case 3 -> utf8(toolCall(random.nextInt(9), random.nextBoolean() ? "echo" : "admin_reset").substring(0,
					10 + random.nextInt(60)));
			case 4 -> insert(random, utf8(toolCall(random.nextInt(9), "echo")),
					INVALID_UTF_8[random.nextInt(INVALID_UTF_8.length)]);
			case 5 -> {
				String number = NUMBERS[random.nextInt(NUMBERS.length)];
				yield utf8(
						random.nextBoolean() ? toolCall(number, "{\"n\":1}") : toolCall("1", "{\"n\":" + number + "}"));
			}
			case 6 -> {
				int depth = 1 + random.nextInt(200);
				yield utf8(toolCall("1", "{\"deep\":" + "[".repeat(depth) + "]".repeat(depth) + "}"));
			}
			case 7 -> utf8(toolCall("1", "{\"long\":\"" + "x".repeat(random.nextInt(1_200_000)) + "\"}"));
			case 8 -> utf8(toolCall("1", "{\"a\":1,\"a\":" + random.nextInt(3) + "}"));
			case 9 -> insert(random, utf8(toolCall(random.nextInt(9), "echo")),
					random.nextBoolean() ? new byte[] { (byte) 0xEF, (byte) 0xBB, (byte) 0xBF } : new byte[] { 0 });
			case 10 ->
				utf8(toolCall("1", "{\"s\":\"\\u" + Integer.toHexString(0xD800 + random.nextInt(0x800)) + "\"}"));
			default -> utf8(toolCall(random.nextInt(1000), "echo"));
		};
	}

	/** The body with {@code bytes} at a random place (the start included). */
	private static byte[] insert(Random random, byte[] body, byte[] bytes) {
		int at = random.nextInt(body.length);
		byte[] out = new byte[body.length + bytes.length];
		System.arraycopy(body, 0, out, 0, at);
		System.arraycopy(bytes, 0, out, at, bytes.length);
		System.arraycopy(body, at, out, at + bytes.length, body.length - at);
		return out;
	}

	private static String toolCall(String id, String arguments) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
				+ "\"arguments\":" + arguments + "}}";
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static String abbreviate(String text) {
		return (text.length() <= 300) ? text : text.substring(0, 300) + "... (" + text.length() + " bytes)";
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
