package io.github.mcpgateway.identity;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;

import io.github.mcpgateway.policy.IdentityMode;

/**
 * Reads a bearer token only where the server's identity mode is {@code oauth}, and only
 * from the {@code Authorization} header (RFC 6750 section 2.1; never a query parameter or
 * form field, which would leak into logs). On an {@code adapter-certificate} server a
 * token is ignored, so it can never stand in for the certificate; on a
 * {@code delegated-header} server the header belongs to the upstream and the gateway does
 * not touch it.
 */
final class PolicyAwareBearerTokenResolver implements BearerTokenResolver {

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
		return this.headerOnly.resolve(request);
	}

}
