package io.github.mcpgateway.routing;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;
import org.springframework.web.util.UrlPathHelper;

import io.github.mcpgateway.policy.LivePolicy;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.IdentityMode;

/**
 * The MCP server a request is for, resolved once per request from the policy snapshot
 * live when the request arrived.
 *
 * <p>
 * The first call for a request (made by {@link ServerResolutionFilter}, ahead of Spring
 * Security) reads the live policy and pins the answer on the request; every later call,
 * from any stage, returns that pinned answer. So a reload between the identity stage and
 * the grant stage cannot decide one request partly against the old policy (its identity
 * mode) and partly against the new one (its grants).
 */
public final class ServerLocator {

	private static final String ATTRIBUTE = ServerLocator.class.getName() + ".resolved";

	private final LivePolicy livePolicy;

	public ServerLocator(LivePolicy livePolicy) {
		Assert.notNull(livePolicy, "livePolicy must not be null");
		this.livePolicy = livePolicy;
	}

	/** The request's server, {@code null} when no server is on its path. */
	public @Nullable McpServerPolicy serverOf(HttpServletRequest request) {
		Resolution resolution = (Resolution) request.getAttribute(ATTRIBUTE);
		if (resolution == null) {
			resolution = new Resolution(resolve(request));
			request.setAttribute(ATTRIBUTE, resolution);
		}
		return resolution.server();
	}

	/**
	 * The identity mode of the request's server; {@link IdentityMode#OAUTH} when no
	 * server matches.
	 */
	public IdentityMode identityModeOf(HttpServletRequest request) {
		McpServerPolicy server = serverOf(request);
		return (server != null) ? server.identity() : IdentityMode.OAUTH;
	}

	private @Nullable McpServerPolicy resolve(HttpServletRequest request) {
		if (!this.livePolicy.isLoaded()) {
			return null;
		}
		return this.livePolicy.current().serverAt(UrlPathHelper.defaultInstance.getPathWithinApplication(request));
	}

	private record Resolution(@Nullable McpServerPolicy server) {
	}

}
