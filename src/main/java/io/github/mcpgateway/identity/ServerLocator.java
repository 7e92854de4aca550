package io.github.mcpgateway.identity;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;
import org.springframework.web.util.UrlPathHelper;

import io.github.mcpgateway.policy.IdentityMode;
import io.github.mcpgateway.policy.LivePolicy;
import io.github.mcpgateway.policy.McpServerPolicy;

/**
 * Finds the MCP server a request is for, from the live policy, before the request stage
 * has run. The identity stage needs it to know how to verify the caller (the server's
 * identity mode).
 */
public final class ServerLocator {

	private final LivePolicy livePolicy;

	public ServerLocator(LivePolicy livePolicy) {
		Assert.notNull(livePolicy, "livePolicy must not be null");
		this.livePolicy = livePolicy;
	}

	public @Nullable McpServerPolicy serverOf(HttpServletRequest request) {
		if (!this.livePolicy.isLoaded()) {
			return null;
		}
		return this.livePolicy.current().serverAt(UrlPathHelper.defaultInstance.getPathWithinApplication(request));
	}

	/**
	 * The identity mode of the request's server; {@link IdentityMode#OAUTH} when no
	 * server matches.
	 */
	public IdentityMode identityModeOf(HttpServletRequest request) {
		McpServerPolicy server = serverOf(request);
		return (server != null) ? server.identity() : IdentityMode.OAUTH;
	}

}
