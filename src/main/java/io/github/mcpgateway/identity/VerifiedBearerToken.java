package io.github.mcpgateway.identity;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The access token this request was authenticated with, for the one use that needs it:
 * the {@code subject_token} of an RFC 8693 token exchange. Never forwarded, logged or
 * kept.
 *
 * <p>
 * Contract: non-null only when the request's authentication is an
 * {@link McpAuthentication} verified from a bearer JWT (identity mode {@code oauth}); the
 * token is then exactly the one in the {@code Authorization} header, which is the only
 * place the gateway reads tokens from ({@link PolicyAwareBearerTokenResolver}).
 */
public final class VerifiedBearerToken {

	private VerifiedBearerToken() {
	}

	public static @Nullable String of(HttpServletRequest request) {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		if (!(authentication instanceof McpAuthentication mcp) || !JwtPrincipalConverter.METHOD.equals(mcp.method())) {
			return null;
		}
		return AuthorizationHeaderToken.read(request.getHeader(HttpHeaders.AUTHORIZATION));
	}

}
