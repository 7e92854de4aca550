package io.github.mcpgateway.identity;

import java.util.List;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.core.convert.converter.Converter;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.AuthenticationManagerResolver;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;
import org.springframework.util.Assert;

/**
 * Verifies a bearer JWT for the resource the request is for (RFC 8707; MCP authorization:
 * a server must only accept tokens issued for it).
 *
 * <p>
 * The decoder checks everything that does not depend on the request: signature against
 * the issuer's JWKS, {@code iss}, {@code exp}, {@code nbf}. This resolver adds the
 * audience: {@code aud} must contain the canonical URI of the request's resource
 * ({@link ResourceMetadataLocator#resourceUri(HttpServletRequest)}: the server's, or the
 * gateway's own on any other path) or one of the gateway-wide
 * {@code gateway.identity.oauth.audiences}. A token issued for one server's resource is
 * therefore refused on another server ({@code 401 invalid_token}). A refused audience is
 * an invalid token, like a bad signature: the client must get a token for this resource.
 */
final class ResourceAudienceAuthenticationManagerResolver implements AuthenticationManagerResolver<HttpServletRequest> {

	private static final OAuth2Error WRONG_AUDIENCE = new OAuth2Error(OAuth2ErrorCodes.INVALID_TOKEN,
			"The token was not issued for this resource", null);

	private final JwtDecoder decoder;

	private final Set<String> audiences;

	private final ResourceMetadataLocator resources;

	private final Converter<Jwt, ? extends AbstractAuthenticationToken> converter;

	ResourceAudienceAuthenticationManagerResolver(JwtDecoder decoder, List<String> audiences,
			ResourceMetadataLocator resources, Converter<Jwt, ? extends AbstractAuthenticationToken> converter) {
		Assert.notNull(decoder, "decoder must not be null");
		Assert.notNull(audiences, "audiences must not be null");
		Assert.notNull(resources, "resources must not be null");
		Assert.notNull(converter, "converter must not be null");
		this.decoder = decoder;
		this.audiences = Set.copyOf(audiences);
		this.resources = resources;
		this.converter = converter;
	}

	@Override
	public AuthenticationManager resolve(HttpServletRequest request) {
		JwtAuthenticationProvider provider = new JwtAuthenticationProvider((token) -> {
			Jwt jwt = this.decoder.decode(token);
			if (!issuedFor(jwt, request)) {
				throw new JwtValidationException(WRONG_AUDIENCE.getDescription(), List.of(WRONG_AUDIENCE));
			}
			return jwt;
		});
		provider.setJwtAuthenticationConverter(this.converter);
		return provider::authenticate;
	}

	/**
	 * A gateway-wide audience is checked first: the request's resource URI is built only
	 * for a token that names none.
	 */
	private boolean issuedFor(Jwt jwt, HttpServletRequest request) {
		List<String> aud = jwt.getAudience();
		if (aud == null || aud.isEmpty()) {
			return false;
		}
		for (String value : aud) {
			if (this.audiences.contains(value)) {
				return true;
			}
		}
		return aud.contains(this.resources.resourceUri(request));
	}

}
