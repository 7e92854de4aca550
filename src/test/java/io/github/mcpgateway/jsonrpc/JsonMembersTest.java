package io.github.mcpgateway.jsonrpc;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class JsonMembersTest {

	private static final String[] KEY = { "params", "_meta", "k" };

	@ParameterizedTest
	@CsvSource(delimiter = '|', quoteCharacter = '`', value = {
			// the only member
			"`{\"params\":{\"_meta\":{\"k\":\"v\"}}}` | `{\"params\":{\"_meta\":{}}}`",
			"`{\"params\":{\"_meta\":{ \"k\" : \"v\" }}}` | `{\"params\":{\"_meta\":{ }}}`",
			// first, middle and last of several, with whitespace kept elsewhere
			"`{\"params\":{\"_meta\":{\"k\":\"v\", \"a\":1}}}` | `{\"params\":{\"_meta\":{\"a\":1}}}`",
			"`{\"params\":{\"_meta\":{\"a\":1,\"k\":{\"x\":[1,2]},\"b\":2}}}` | `{\"params\":{\"_meta\":{\"a\":1,\"b\":2}}}`",
			"`{\"params\":{\"_meta\":{\"a\":1.000 , \"k\":\"v\" }},\"id\":1}` | `{\"params\":{\"_meta\":{\"a\":1.000 }},\"id\":1}`",
			// a name written with an escape is the same member
			"`{\"params\":{\"_meta\":{\"\\u006b\":\"v\",\"a\":\"\\u00e9\"}}}` | `{\"params\":{\"_meta\":{\"a\":\"\\u00e9\"}}}`",
			// a member of that name elsewhere is not touched
			"`{\"k\":1,\"params\":{\"k\":2,\"_meta\":{\"a\":{\"k\":3}}}}` | `{\"k\":1,\"params\":{\"k\":2,\"_meta\":{\"a\":{\"k\":3}}}}`" })
	void removeTakesOutTheMemberAndOneCommaAndKeepsEveryOtherByte(String body, String expected) {
		assertThat(text(JsonMembers.remove(bytes(body), KEY))).isEqualTo(expected);
	}

	@ParameterizedTest
	@ValueSource(
			strings = { "not json", "[1,2]", "{\"params\":[]}", "{\"params\":{\"_meta\":\"k\"}}", "{\"params\":{" })
	void removeLeavesWhatIsNotTheExpectedShapeUnchanged(String body) {
		byte[] bytes = bytes(body);
		assertThat(JsonMembers.remove(bytes, KEY)).isSameAs(bytes);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', quoteCharacter = '`',
			value = { "`{\"result\":{}}` | `{\"result\":{\"m\":true}}`",
					"`{\"result\":{ \"a\":1}}` | `{\"result\":{\"m\":true, \"a\":1}}`",
					"`{\"result\":[]}` | `{\"result\":[]}`", "`{\"error\":{}}` | `{\"error\":{}}`" })
	void insertFirstPutsTheMemberFirstInTheObject(String body, String expected) {
		assertThat(text(JsonMembers.insertFirst(bytes(body), "\"m\":true", "result"))).isEqualTo(expected);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', quoteCharacter = '`', value = { "`{\"result\":{\"_meta\":null}}` | true",
			"`{\"result\":{\"a\":{\"_meta\":{}}}}` | false", "`{\"_meta\":{}}` | false" })
	void hasSeesAMemberWhateverItsValue(String body, boolean expected) {
		assertThat(JsonMembers.has(bytes(body), "result", "_meta")).isEqualTo(expected);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}

}
