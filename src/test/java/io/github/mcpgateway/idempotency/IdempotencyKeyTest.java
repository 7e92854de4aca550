package io.github.mcpgateway.idempotency;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.mock.web.MockHttpServletRequest;

import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.transport.McpHeaders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IdempotencyKeyTest {

	@Test
	void isValidAcceptsExactlyOneTo255VisibleAsciiCharacters() {
		for (char c = 0; c < 0x300; c++) {
			assertThat(IdempotencyKey.isValid(String.valueOf(c))).as("char %d", (int) c)
				.isEqualTo(c >= 0x21 && c <= 0x7E);
		}
		assertThat(IdempotencyKey.isValid("")).isFalse();
		assertThat(IdempotencyKey.isValid("a".repeat(255))).isTrue();
		assertThat(IdempotencyKey.isValid("a".repeat(256))).isFalse();
		assertThat(IdempotencyKey.isValid("a b")).isFalse();
		assertThat(IdempotencyKey.isValid("3f2b9c1e-7d4a-4e8b-9c1f-0a2b3c4d5e6f")).isTrue();
	}

	@Test
	void readWhenHeaderGivenTwiceThenInvalid() {
		MockHttpServletRequest request = new MockHttpServletRequest();
		request.addHeader(McpHeaders.IDEMPOTENCY_KEY, "a");
		request.addHeader(McpHeaders.IDEMPOTENCY_KEY, "a");

		assertInvalid(request, null);
	}

	@Test
	void readWhenValidHeaderThenTheKeyAsAHeaderKey() {
		MockHttpServletRequest request = new MockHttpServletRequest();
		request.addHeader(McpHeaders.IDEMPOTENCY_KEY, "key-1");

		assertThat(IdempotencyKey.read(request, toolCall("{}"))).isEqualTo(new IdempotencyKey("key-1", false));
	}

	@Test
	void readWhenMetaMemberThenTheKeyInTheMessage() {
		assertThat(IdempotencyKey.read(new MockHttpServletRequest(), toolCall(meta("\"key-1\""))))
			.isEqualTo(new IdempotencyKey("key-1", true));
	}

	@Test
	void readWhenHeaderAndMemberAreEqualThenOneKeyInTheMessage() {
		MockHttpServletRequest request = new MockHttpServletRequest();
		request.addHeader(McpHeaders.IDEMPOTENCY_KEY, "key-1");

		assertThat(IdempotencyKey.read(request, toolCall(meta("\"key-1\""))))
			.isEqualTo(new IdempotencyKey("key-1", true));
	}

	@Test
	void readWhenHeaderAndMemberDifferThenInvalid() {
		MockHttpServletRequest request = new MockHttpServletRequest();
		request.addHeader(McpHeaders.IDEMPOTENCY_KEY, "key-1");

		assertInvalid(request, toolCall(meta("\"key-2\"")));
	}

	@ParameterizedTest
	@ValueSource(strings = { "1", "null", "true", "{}", "[\"k\"]", "\"\"", "\"a b\"", "\"caf\u00e9\"" })
	void readWhenMemberIsNotAValidKeyStringThenInvalid(String value) {
		assertInvalid(new MockHttpServletRequest(), toolCall(meta(value)));
	}

	@Test
	void readWhenMemberIsTooLongThenInvalid() {
		assertThat(IdempotencyKey.read(new MockHttpServletRequest(), toolCall(meta("\"" + "k".repeat(255) + "\"")))
			.value()).hasSize(255);
		assertInvalid(new MockHttpServletRequest(), toolCall(meta("\"" + "k".repeat(256) + "\"")));
	}

	private static void assertInvalid(MockHttpServletRequest request, JsonRpcMessage message) {
		assertThatThrownBy(() -> IdempotencyKey.read(request, message)).isInstanceOfSatisfying(
				GatewayErrorException.class,
				(ex) -> assertThat(ex.error().code()).isEqualTo("idempotency_key_invalid"));
	}

	private static String meta(String value) {
		return "{\"name\":\"echo\",\"_meta\":{\"io.github.mcpgateway/idempotency-key\":" + value + "}}";
	}

	private static JsonRpcMessage toolCall(String params) {
		JsonNode node = JsonMapper.shared().readTree(params);
		return new JsonRpcMessage(JsonRpcMessage.Kind.REQUEST, JsonMapper.shared().readTree("1"), "tools/call", node,
				"echo");
	}

}
