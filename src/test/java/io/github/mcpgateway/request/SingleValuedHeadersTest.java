package io.github.mcpgateway.request;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class SingleValuedHeadersTest {

	@ParameterizedTest
	@CsvSource({ "Mcp-Name, header_mismatch", "mcp-name, header_mismatch", "Mcp-Method, header_mismatch",
			"MCP-Protocol-Version, header_mismatch", "mcp-protocol-version, header_mismatch",
			"Mcp-Param-Region, header_mismatch", "mcp-param-x, header_mismatch", "Mcp-Session-Id, header_invalid",
			"Idempotency-Key, idempotency_key_invalid", "content-type, unsupported_media_type" })
	void refusalWhenDecidingHeaderRepeatedThenItsCode(String name, String code) {
		assertThat(SingleValuedHeaders.refusal(name, 2)).isNotNull()
			.satisfies((error) -> assertThat(error.code()).isEqualTo(code));
		assertThat(SingleValuedHeaders.refusal(name, 3)).isNotNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "Mcp-Name", "Mcp-Session-Id", "Content-Type", "Mcp-Param-Region" })
	void refusalWhenDecidingHeaderSentOnceThenNone(String name) {
		assertThat(SingleValuedHeaders.refusal(name, 1)).isNull();
		assertThat(SingleValuedHeaders.refusal(name, 0)).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "Accept", "Cookie", "X-Forwarded-For", "Mcp-Parameter", "Mcp-Param" })
	void refusalWhenOtherHeaderRepeatedThenNone(String name) {
		assertThat(SingleValuedHeaders.refusal(name, 2)).isNull();
	}

}
