package io.github.mcpgateway.identity;

import java.util.Random;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link AuthorizationHeaderToken} reads a header value exactly as Spring Security's
 * {@link DefaultBearerTokenResolver} does: the same token, or the same refusal.
 */
class AuthorizationHeaderTokenTest {

	private static final String ALPHABET = "aZ09-._~+/= \t\u00e9\u0000Bb";

	private final DefaultBearerTokenResolver spring = new DefaultBearerTokenResolver();

	@Test
	void randomHeaderValuesGetSpringsAnswer() {
		Random random = new Random(20261130);
		String[] prefixes = { "Bearer ", "bearer ", "BEARER ", "Bearer", "Bearer  ", "Bearerx", "Basic ", "",
				"bEaReR " };
		for (int sample = 0; sample < 50_000; sample++) {
			StringBuilder value = new StringBuilder(prefixes[random.nextInt(prefixes.length)]);
			int length = random.nextInt(8);
			for (int i = 0; i < length; i++) {
				value.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
			}
			assertSameAnswer(value.toString());
		}
	}

	@Test
	void edgeCasesGetSpringsAnswer() {
		for (String value : new String[] { "Bearer abc", "Bearer abc==", "Bearer ==", "Bearer a=b", "Bearer a ",
				"Bearer a\n", "Bearer", "Bearer ", "bearer", "Token abc", "Bearer\tabc", "Bearer a.b.c",
				"Bearer a~+/" }) {
			assertSameAnswer(value);
		}
	}

	@Test
	void aSignedJwtIsReadWhole() {
		String jwt = "eyJhbGciOiJSUzI1NiJ9." + "eyJzdWIiOiJhbGljZSJ9".repeat(40) + ".c2lnbmF0dXJl";
		assertThat(AuthorizationHeaderToken.read("Bearer " + jwt)).isEqualTo(jwt);
		assertThatExceptionOfType(OAuth2AuthenticationException.class)
			.isThrownBy(() -> AuthorizationHeaderToken.read("Bearer " + jwt + "\u0000"));
	}

	private void assertSameAnswer(String value) {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/mcp");
		request.addHeader("Authorization", value);
		String expected;
		try {
			expected = this.spring.resolve(request);
		}
		catch (OAuth2AuthenticationException ex) {
			assertThatExceptionOfType(OAuth2AuthenticationException.class).as("%s", value)
				.isThrownBy(() -> AuthorizationHeaderToken.read(value))
				.satisfies(
						(mine) -> assertThat(mine.getError().getErrorCode()).isEqualTo(ex.getError().getErrorCode()));
			return;
		}
		assertThat(AuthorizationHeaderToken.read(value)).as("%s", value).isEqualTo(expected);
	}

}
