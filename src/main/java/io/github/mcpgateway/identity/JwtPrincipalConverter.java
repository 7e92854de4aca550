package io.github.mcpgateway.identity;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.core.convert.converter.Converter;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.BearerTokenErrors;
import org.springframework.util.Assert;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * Maps a verified JWT to an {@link McpAuthentication} using the configured claim names. A
 * token without the human claim is rejected as {@code invalid_token}: the gateway never
 * invents an identity.
 */
public final class JwtPrincipalConverter implements Converter<Jwt, AbstractAuthenticationToken> {

	/** The {@link McpAuthentication#method()} of a caller verified by a bearer JWT. */
	static final String METHOD = "oauth";

	private final IdentityProperties.Claims claims;

	public JwtPrincipalConverter(IdentityProperties.Claims claims) {
		Assert.notNull(claims, "claims must not be null");
		this.claims = claims;
	}

	@Override
	public AbstractAuthenticationToken convert(Jwt jwt) {
		String human = claim(jwt, this.claims.human());
		if (human == null || human.isBlank()) {
			throw new OAuth2AuthenticationException(BearerTokenErrors.invalidToken("The token names no subject"));
		}
		String agent = null;
		for (String path : this.claims.agent()) {
			agent = claim(jwt, path);
			if (agent != null && !agent.isBlank()) {
				break;
			}
		}
		return new McpAuthentication(new McpPrincipal(human, agent, claim(jwt, this.claims.team())), METHOD);
	}

	private static @Nullable String claim(Jwt jwt, String path) {
		Object value = jwt.getClaims();
		for (String segment : path.split("\\.")) {
			if (!(value instanceof Map<?, ?> map)) {
				return null;
			}
			value = map.get(segment);
		}
		return (value instanceof String string) ? string : null;
	}

}
