package io.github.mcpgateway.jsonrpc;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.jsonrpc.MalformedJsonException.Reason;
import io.github.mcpgateway.support.TestJsonRpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StrictJsonReaderTest {

	private final StrictJsonReader reader = TestJsonRpc.reader();

	@ParameterizedTest
	@ValueSource(strings = { "C0AF", "E080AF", "F4908080", "FF", "C328", "EDA080", "EDBFBF", "F8888080", "E282",
			"F09F98", "80", "C1BF" })
	void readWhenStringHoldsInvalidUtf8ThenRefused(String hex) {
		assertRefused(bytes("{\"a\":\"x", hex, "y\"}"), Reason.INVALID_UTF_8);
		assertRefused(bytes("{\"x", hex, "\":1}"), Reason.INVALID_UTF_8);
	}

	@Test
	void readWhenTruncatedSequenceEndsTheBodyThenRefused() {
		assertRefused(bytes("{\"a\":\"x\"}", "E282", ""), Reason.INVALID_UTF_8);
	}

	@Test
	void readWhenValidMultibyteTextThenKeptExactly() {
		JsonNode node = this.reader.read(bytes("{\"a\":\"", "C3A9E282ACF09F9880F48FBFBF", "\"}"));

		assertThat(node.get("a").stringValue()).isEqualTo("é€😀\uDBFF\uDFFF");
	}

	@Test
	void readWhenByteOrderMarkThenRefused() {
		assertRefused(bytes("", "EFBBBF", "{\"a\":1}"), Reason.BYTE_ORDER_MARK);
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00x\"}", "{\"a\":\"\\ud800\\ud800\"}",
			"{\"\\udfff\":1}", "{\"a\":[\"ok\",{\"b\":\"x\\uDBFF\"}]}" })
	void readWhenEscapesLeaveASurrogateUnpairedThenRefused(String json) {
		assertRefused(json, Reason.UNPAIRED_SURROGATE);
	}

	@Test
	void readWhenEscapesFormAPairThenText() {
		assertThat(read("{\"a\":\"\\ud83d\\ude00\",\"b\":\"\\\\ud800\"}").get("a").stringValue()).isEqualTo("😀");
	}

	@ParameterizedTest
	@ValueSource(strings = { "1e99999999999999999999", "1E+2147483648", "-1e-99999999999", "1e1001", "-1.5e-1002",
			"0e1001", "1E2147483647" })
	void readWhenNumberExponentPastTheBoundThenRefused(String number) {
		assertRefused("{\"id\":" + number + "}", Reason.NUMBER_OUT_OF_BOUNDS);
		assertRefused("[1,{\"n\":[" + number + "]}]", Reason.NUMBER_OUT_OF_BOUNDS);
	}

	@Test
	void readWhenNumberLiteralLongerThanTheBoundThenRefused() {
		assertRefused("{\"n\":" + "9".repeat(5000) + "}", Reason.LIMIT);
		assertRefused("{\"n\":" + "9".repeat(101) + "}", Reason.LIMIT);
		assertRefused("{\"n\":0." + "1".repeat(120) + "}", Reason.LIMIT);
	}

	@Test
	void readWhenNumbersWithinTheBoundsThenExact() {
		JsonNode node = read("{\"a\":1e1000,\"b\":-1.5e-999,\"c\":" + "9".repeat(100) + ",\"d\":1e300,\"e\":0.1}");

		assertThat(node.get("a").decimalValue()).isEqualByComparingTo("1e1000");
		assertThat(node.get("b").decimalValue()).isEqualByComparingTo("-1.5e-999");
		assertThat(node.get("c").bigIntegerValue().toString()).hasSize(100);
		assertThat(node.get("e").decimalValue().toString()).isEqualTo("0.1");
	}

	@Test
	void readWhenNestedDeeperThanTheBoundThenRefused() {
		assertRefused("[".repeat(65) + "]".repeat(65), Reason.LIMIT);
		assertThat(read("[".repeat(64) + "]".repeat(64)).isArray()).isTrue();
	}

	@Test
	void readWhenStringLongerThanTheBoundThenRefused() {
		StrictJsonReader small = new StrictJsonReader(new JsonReadLimits(64, 100, 1000, 300), 10_000);

		assertRefused(small, "{\"a\":\"" + "x".repeat(301) + "\"}", Reason.LIMIT);
		assertRefused(small, "{\"" + "x".repeat(301) + "\":1}", Reason.LIMIT);
		assertThat(small.read(utf8("{\"a\":\"" + "x".repeat(300) + "\"}")).isObject()).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"a\":1,\"a\":2}", "{\"a\":1} {\"b\":2}", "{\"a\":1}x", "{\"a\":1", "", " ",
			"{\"a\":\"\u0000\"}", "\u0000{\"a\":1}", "{\"a\":1}\u0000", "{'a':1}", "{\"a\":NaN}", "{\"a\":01}",
			"{\"a\":1,}", "/*c*/{\"a\":1}" })
	void readWhenNotExactlyOneJsonValueThenRefused(String json) {
		assertThatThrownBy(() -> read(json)).isInstanceOf(MalformedJsonException.class);
	}

	private JsonNode read(String json) {
		return this.reader.read(utf8(json));
	}

	private void assertRefused(String json, Reason reason) {
		assertRefused(this.reader, json, reason);
	}

	private void assertRefused(byte[] body, Reason reason) {
		assertThatThrownBy(() -> this.reader.read(body)).isInstanceOfSatisfying(MalformedJsonException.class,
				(ex) -> assertThat(ex.reason()).isEqualTo(reason));
	}

	private static void assertRefused(StrictJsonReader reader, String json, Reason reason) {
		assertThatThrownBy(() -> reader.read(utf8(json))).isInstanceOfSatisfying(MalformedJsonException.class,
				(ex) -> assertThat(ex.reason()).isEqualTo(reason));
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	static byte[] bytes(String before, String hex, String after) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.writeBytes(utf8(before));
		out.writeBytes(HexFormat.of().parseHex(hex));
		out.writeBytes(utf8(after));
		return out.toByteArray();
	}

}
