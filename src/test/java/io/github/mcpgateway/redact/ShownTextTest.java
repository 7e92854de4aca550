package io.github.mcpgateway.redact;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class ShownTextTest {

	@Test
	void boundedKeepsAShortValueAndCutsALongOneToAPrefixMarkerAndHash() {
		String longest = "x".repeat(ShownText.MAX_LENGTH);
		String longer = longest + "y";

		assertThat(ShownText.bounded(longest)).isSameAs(longest);
		assertThat(ShownText.bounded(null)).isNull();
		assertThat(ShownText.bounded(longer)).startsWith("x".repeat(96) + "...#")
			.hasSize(96 + 4 + 16)
			.isEqualTo(ShownText.bounded(longer));
		assertThat(ShownText.bounded(longer)).as("values that differ after the prefix stay apart")
			.isNotEqualTo(ShownText.bounded(longest + "z"));
	}

	@Test
	void boundedNeverSplitsASurrogatePair() {
		String value = "a".repeat(95) + "\uD83D\uDE00" + "b".repeat(100);

		assertThat(ShownText.bounded(value)).startsWith("a".repeat(95) + "...#");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = {
			"invalid value \"http://user:s3cr3t-pass@up.example/mcp\"|invalid value \"http://[redacted]@up.example/mcp\"",
			"invalid value \"http://user:s3cr3t pass@up.example/mcp\"|invalid value \"http://[redacted]@up.example/mcp\"",
			"https://u:p@ss@host:8443/x|https://[redacted]@host:8443/x",
			"redis://:pw@redis:6379|redis://[redacted]@redis:6379",
			"https://h/jwks?token=abc&x=1|https://h/jwks?token=[redacted]&x=1",
			"https://h/a?client_secret=abc|https://h/a?client_secret=[redacted]",
			"http://up.example/mcp: refused|http://up.example/mcp: refused" })
	void withoutCredentialsRemovesUserInformationAndSecretParameters(String text, String shown) {
		assertThat(ShownText.withoutCredentials(text)).isEqualTo(shown);
	}

	@Test
	void bothRulesRedactBeforeTheyCut() {
		String message = "x".repeat(80) + " http://user:a-long-password-here@host/" + "y".repeat(100);

		assertThat(ShownText.of(message)).doesNotContain("user:a").contains("http://[redacte...#");
	}

}
