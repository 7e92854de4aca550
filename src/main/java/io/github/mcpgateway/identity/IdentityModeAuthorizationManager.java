package io.github.mcpgateway.identity;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.authorization.AuthorizationResult;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;

import io.github.mcpgateway.principal.IdentityMode;
import io.github.mcpgateway.routing.ServerLocator;

/**
 * Requires the identity the server's mode calls for: an {@link McpAuthentication}
 * verified the same way ({@code oauth} or {@code adapter-certificate}); nothing on a
 * {@code delegated-header} server, whose upstream authenticates the caller itself. Paths
 * no server is on still need an OAuth identity, so an unauthenticated caller cannot probe
 * which paths exist.
 */
final class IdentityModeAuthorizationManager implements AuthorizationManager<RequestAuthorizationContext> {

	private final ServerLocator servers;

	IdentityModeAuthorizationManager(ServerLocator servers) {
		this.servers = servers;
	}

	@Override
	public @Nullable AuthorizationResult authorize(Supplier<? extends @Nullable Authentication> authentication,
			RequestAuthorizationContext context) {
		IdentityMode mode = this.servers.identityModeOf(context.getRequest());
		if (mode == IdentityMode.DELEGATED_HEADER) {
			return new AuthorizationDecision(true);
		}
		String expected = (mode == IdentityMode.ADAPTER_CERTIFICATE) ? "adapter-certificate" : "oauth";
		return new AuthorizationDecision(
				authentication.get() instanceof McpAuthentication mcp && mcp.method().equals(expected));
	}

}
