package io.github.mcpgateway.request;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class RequestBodyReaderTest {

	@ParameterizedTest
	@ValueSource(strings = { "application/json", "application/json; charset=utf-8", "application/json;charset=UTF-8",
			"application/json; charset=\"utf-8\"", "APPLICATION/JSON; CHARSET=UTF-8", "application/json; q=1" })
	void isJsonWhenJsonInUtf8ThenTrue(String contentType) {
		assertThat(RequestBodyReader.isJson(contentType)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "application/json; charset=iso-8859-1", "application/json; charset=utf-16le",
			"application/json; charset=\"utf-16\"", "application/json; charset=latin1",
			"application/json; charset=utf8", "application/json; charset=", "application/json; charset=\"\"",
			"application/json; charset=no-such-set", "application/json; charset=iso-8859-1; charset=utf-8",
			"application/json; charset=utf-8; CHARSET=utf-8", "text/plain", "application/jsonx", "", "not a type" })
	void isJsonWhenOtherTypeOrCharsetThenFalse(String contentType) {
		assertThat(RequestBodyReader.isJson(contentType)).isFalse();
	}

}
