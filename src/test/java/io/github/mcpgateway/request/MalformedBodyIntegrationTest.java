package io.github.mcpgateway.request;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.UUID;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;

import io.github.mcpgateway.idempotency.IdempotencyStore;
import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bodies two parsers could read differently, or that no parser can represent, through the
 * whole chain: each is a 400 of the gateway, nothing reaches the upstream, and no
 * Idempotency-Key entry is made. The principal may call any tool, so a grant never hides
 * what the parser let through.
 */
class MalformedBodyIntegrationTest extends GatewayIntegrationTest {

	private static final String ANY_TOOL = TestJwts.jwt().human("carol").sign();

	@Autowired
	IdempotencyStore store;

	@ParameterizedTest(name = "{0} in the {1}")
	@CsvSource({ "C0AF, id", "C0AF, method", "C0AF, tool", "C0AF, arguments", "E080AF, id", "E080AF, method",
			"E080AF, tool", "E080AF, arguments", "F4908080, id", "F4908080, method", "F4908080, tool",
			"F4908080, arguments", "FF, tool", "C328, tool", "EDA080, tool", "EDA080, arguments", "E282, arguments" })
	void invalidUtf8AnywhereIsRefusedBeforeTheUpstream(String hex, String place) {
		byte[] body = switch (place) {
			case "id" -> bytes("{\"jsonrpc\":\"2.0\",\"id\":\"1", hex,
					"\",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{}}}");
			case "method" -> bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/", hex,
					"call\",\"params\":{\"name\":\"echo\",\"arguments\":{}}}");
			case "tool" -> bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"ec",
					hex, "ho\",\"arguments\":{}}}");
			default -> bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
					+ "\"arguments\":{\"text\":\"a", hex, "b\"}}}");
		};

		assertRefusedUnkeyedAndKeyed(body);
	}

	@ParameterizedTest
	@ValueSource(strings = { "1e99999999999999999999", "1E+2147483648", "-1e-99999999999", "1e1001" })
	void numbersPastTheExponentBoundAreRefusedAsIdAndInParams(String number) {
		assertRefusedUnkeyedAndKeyed(utf8(toolCall(number, "{\"n\":1}")));
		assertRefusedUnkeyedAndKeyed(utf8(toolCall("1", "{\"n\":[1," + number + "]}")));
	}

	@ParameterizedTest
	@ValueSource(ints = { 101, 5000 })
	void numbersLongerThanTheBoundAreRefusedAsIdAndInParams(int digits) {
		String number = "7".repeat(digits);
		assertRefusedUnkeyedAndKeyed(utf8(toolCall(number, "{}")));
		assertRefusedUnkeyedAndKeyed(utf8(toolCall("1", "{\"n\":" + number + "}")));
	}

	@ParameterizedTest
	@ValueSource(strings = { "1e300", "-1e-999", "1E+1000", "12345678901234567890123456789" })
	void numbersWithinTheBoundsGetTheNormalAnswer(String number) {
		byte[] body = utf8(toolCall(number, "{\"n\":" + number + "}"));
		HttpResponse<String> unkeyed = send(body, null);
		HttpResponse<String> keyed = send(body, UUID.randomUUID().toString());

		assertThat(unkeyed.statusCode()).isEqualTo(200);
		assertThat(keyed.statusCode()).isEqualTo(200);
		assertThat(upstream.count()).isEqualTo(2);
		assertThat(upstream.received().get(0).bodyText()).contains("\"n\":" + number);
	}

	@ParameterizedTest
	@ValueSource(strings = { "EFBBBF", "00" })
	void aByteOrderMarkOrNulBeforeTheBodyIsRefused(String hex) {
		assertRefusedUnkeyedAndKeyed(bytes("", hex, toolCall("1", "{}")));
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"text\":\"\\ud800\"}", "{\"a\":1,\"a\":2}", "{\"text\":\"nul\u0000\"}",
			"{\"deep\":" + "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
					+ "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]" + "}" })
	void unpairedSurrogatesDuplicateMembersRawNulAndDeepNestingAreRefused(String arguments) {
		assertRefusedUnkeyedAndKeyed(utf8(toolCall("1", arguments)));
	}

	private void assertRefusedUnkeyedAndKeyed(byte[] body) {
		upstream.reset();
		int entries = this.store.stats().entries();
		HttpResponse<String> unkeyed = send(body, null);
		HttpResponse<String> keyed = send(body, UUID.randomUUID().toString());

		assertThat(unkeyed.statusCode()).isEqualTo(400);
		assertThat(unkeyed.body()).contains("\"data\":{\"code\":\"invalid_request\"}");
		// A keyed body that is not one valid tools/call: the ADR's unsupported request.
		assertThat(keyed.statusCode()).isEqualTo(400);
		assertThat(keyed.body()).contains("\"data\":{\"code\":\"idempotency_unsupported_request\"}");
		assertThat(upstream.count()).isZero();
		assertThat(this.store.stats().entries()).isEqualTo(entries);
	}

	private HttpResponse<String> send(byte[] body, String key) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri("/mcp/test/echo"))
			.timeout(Duration.ofSeconds(20))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("Authorization", "Bearer " + ANY_TOOL)
			.POST(HttpRequest.BodyPublishers.ofByteArray(body));
		if (key != null) {
			request.header("Idempotency-Key", key);
		}
		return send(request.build());
	}

	private static String toolCall(String id, String arguments) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
				+ "\"arguments\":" + arguments + "}}";
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static byte[] bytes(String before, String hex, String after) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.writeBytes(utf8(before));
		out.writeBytes(HexFormat.of().parseHex(hex));
		out.writeBytes(utf8(after));
		return out.toByteArray();
	}

}
