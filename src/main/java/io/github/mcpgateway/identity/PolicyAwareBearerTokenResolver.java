package io.github.mcpgateway.identity;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.BearerTokenErrors;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;

import io.github.mcpgateway.principal.IdentityMode;
import io.github.mcpgateway.routing.ServerLocator;

/**
 * Reads a bearer token only where the server's identity mode is {@code oauth}, and only
 * from the {@code Authorization} header (RFC 6750 section 2.1; never a query parameter or
 * form field, which would leak into logs). On an {@code adapter-certificate} server a
 * token is ignored, so it can never stand in for the certificate; on a
 * {@code delegated-header} server the header belongs to the upstream and the gateway does
 * not touch it.
 */
final class PolicyAwareBearerTokenResolver implements BearerTokenResolver {

	private static final String ACCESS_TOKEN_PARAMETER = "access_token";

	private final BearerTokenResolver headerOnly = new DefaultBearerTokenResolver();

	private final ServerLocator servers;

	PolicyAwareBearerTokenResolver(ServerLocator servers) {
		this.servers = servers;
	}

	@Override
	public @Nullable String resolve(HttpServletRequest request) {
		if (this.servers.identityModeOf(request) != IdentityMode.OAUTH) {
			return null;
		}
		String token = AuthorizationHeaderToken.read(request.getHeader(HttpHeaders.AUTHORIZATION));
		if (token == null) {
			// No bearer header: Spring's resolver answers the rest (it refuses
			// repeated access_token parameters, and ignores a single one).
			return this.headerOnly.resolve(request);
		}
		if (mayCarryParameterToken(request) && request.getParameterValues(ACCESS_TOKEN_PARAMETER) != null) {
			// As Spring's resolver: a token in the header and one in a parameter is an
			// ambiguous request, even though the parameter would never be used.
			throw new OAuth2AuthenticationException(
					BearerTokenErrors.invalidRequest("Found multiple bearer tokens in the request"));
		}
		return token;
	}

	private static boolean mayCarryParameterToken(HttpServletRequest request) {
		return HttpMethod.GET.matches(request.getMethod())
				|| MediaType.APPLICATION_FORM_URLENCODED_VALUE.equals(request.getContentType());
	}

}
