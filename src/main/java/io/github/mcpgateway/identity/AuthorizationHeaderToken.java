package io.github.mcpgateway.identity;

import org.jspecify.annotations.Nullable;

import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.BearerTokenErrors;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;

/**
 * The bearer token of an {@code Authorization} header value, read as Spring Security's
 * {@link DefaultBearerTokenResolver} reads it, without its regular expression.
 *
 * <p>
 * Contract (RFC 6750 section 2.1, and Spring's answers to the edge cases): a value that
 * does not start with {@code bearer} in any case is not a bearer credential (no token). A
 * value that does must be exactly {@code Bearer}, one space and a {@code b64token}
 * ({@code 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="}), or it is
 * refused as malformed. A test compares both readers on random values.
 *
 * <p>
 * Why not Spring's: its case-insensitive pattern walks a JWT character by character
 * through a character-class union, which was the largest single cost of a proxied call
 * once the HTTP firewall stopped using regular expressions ({@link FirewallText}).
 */
final class AuthorizationHeaderToken {

	private static final String SCHEME = "Bearer ";

	private AuthorizationHeaderToken() {
	}

	/**
	 * The token of {@code authorization}, or null when it is not a bearer credential.
	 * @throws OAuth2AuthenticationException ({@code invalid_token}) when it is a
	 * malformed one
	 */
	static @Nullable String read(@Nullable String authorization) {
		if (authorization == null || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length() - 1)) {
			return null;
		}
		int length = authorization.length();
		int start = SCHEME.length();
		if (length <= start || authorization.charAt(start - 1) != ' ') {
			throw malformed();
		}
		int end = start;
		while (end < length && isTokenCharacter(authorization.charAt(end))) {
			end++;
		}
		if (end == start) {
			throw malformed();
		}
		while (end < length && authorization.charAt(end) == '=') {
			end++;
		}
		if (end != length) {
			throw malformed();
		}
		return authorization.substring(start);
	}

	private static boolean isTokenCharacter(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
				|| c == '_' || c == '~' || c == '+' || c == '/';
	}

	private static OAuth2AuthenticationException malformed() {
		return new OAuth2AuthenticationException(BearerTokenErrors.invalidToken("Bearer token is malformed"));
	}

}
