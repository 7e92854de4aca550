package io.github.mcpgateway.identity;

import java.util.Random;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link FirewallText} gives the answers of Spring Security's default firewall patterns,
 * on every code point and on random mixed strings.
 */
class FirewallTextTest {

	/** The patterns of {@code StrictHttpFirewall}'s default predicates. */
	private static final Pattern NAME = Pattern.compile("[\\p{IsAssigned}&&[^\\p{IsControl}]]*");

	private static final Pattern VALUE = Pattern.compile("[\\p{IsAssigned}&&[[^\\p{IsControl}]||\\t]]*");

	@Test
	void everyCodePointIsJudgedAsTheFirewallPatternsJudgeIt() {
		for (int codePoint = 0; codePoint <= Character.MAX_CODE_POINT; codePoint++) {
			String text = new String(Character.toChars(codePoint));
			assertThat(FirewallText.isAssignedNonControl(text)).as("U+%04X name", codePoint)
				.isEqualTo(NAME.matcher(text).matches());
			assertThat(FirewallText.isHeaderValue(text)).as("U+%04X value", codePoint)
				.isEqualTo(VALUE.matcher(text).matches());
		}
	}

	@Test
	void randomStringsAreJudgedAsTheFirewallPatternsJudgeThem() {
		Random random = new Random(20261130);
		int[] interesting = { '\t', '\n', '\r', 0, 0x7f, 0x85, 0xa0, 0x378, 0xd800, 0xdc00, 0xfffe, 0x1f600, 0xe0001 };
		for (int sample = 0; sample < 20_000; sample++) {
			StringBuilder text = new StringBuilder();
			int length = random.nextInt(12);
			for (int i = 0; i < length; i++) {
				int pick = random.nextInt(10);
				int codePoint = (pick < 6) ? 0x20 + random.nextInt(0x5f)
						: (pick < 8) ? interesting[random.nextInt(interesting.length)]
								: random.nextInt(Character.MAX_CODE_POINT + 1);
				text.appendCodePoint(codePoint);
			}
			String value = text.toString();
			assertThat(FirewallText.isAssignedNonControl(value)).as("name %s", value.codePoints().toArray())
				.isEqualTo(NAME.matcher(value).matches());
			assertThat(FirewallText.isHeaderValue(value)).as("value %s", value.codePoints().toArray())
				.isEqualTo(VALUE.matcher(value).matches());
		}
	}

	@Test
	void aJwtSizedAsciiValuePassesAndOneControlCharacterFailsIt() {
		String token = "eyJ".repeat(300);
		assertThat(FirewallText.isHeaderValue(token)).isTrue();
		assertThat(FirewallText.isHeaderValue(token + "\u0000")).isFalse();
		assertThat(FirewallText.isHeaderValue("a\tb")).isTrue();
		assertThat(FirewallText.isAssignedNonControl("a\tb")).isFalse();
	}

}
