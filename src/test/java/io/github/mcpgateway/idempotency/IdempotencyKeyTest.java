package io.github.mcpgateway.idempotency;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;

import io.github.mcpgateway.error.GatewayErrorException;
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

		assertThatThrownBy(() -> IdempotencyKey.read(request)).isInstanceOfSatisfying(GatewayErrorException.class,
				(ex) -> assertThat(ex.error().code()).isEqualTo("idempotency_key_invalid"));
	}

	@Test
	void readWhenAbsentThenNullAndWhenValidThenTheKey() {
		MockHttpServletRequest request = new MockHttpServletRequest();
		assertThat(IdempotencyKey.read(request)).isNull();

		request.addHeader(McpHeaders.IDEMPOTENCY_KEY, "key-1");
		assertThat(IdempotencyKey.read(request)).isEqualTo("key-1");
	}

}
