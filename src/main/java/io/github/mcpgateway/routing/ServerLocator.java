package io.github.mcpgateway.routing;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;
import org.springframework.web.util.UrlPathHelper;

import io.github.mcpgateway.policy.LivePolicy;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.policy.VirtualServerPolicy;
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
		return resolution(request).server();
	}

	/**
	 * The request's virtual server (ADR 0021), {@code null} when none is on its path;
	 * pinned with the policy snapshot it was found in, which also names its members.
	 */
	public @Nullable VirtualServerPolicy virtualServerOf(HttpServletRequest request) {
		return resolution(request).virtual();
	}

	/**
	 * The policy snapshot the request's server or virtual server was found in,
	 * {@code null} before a policy was loaded.
	 */
	public @Nullable Policy policyOf(HttpServletRequest request) {
		return resolution(request).policy();
	}

	/**
	 * The identity mode of the request's server or virtual server;
	 * {@link IdentityMode#OAUTH} when none matches.
	 */
	public IdentityMode identityModeOf(HttpServletRequest request) {
		Resolution resolution = resolution(request);
		if (resolution.server() != null) {
			return resolution.server().identity();
		}
		if (resolution.virtual() != null && resolution.policy() != null) {
			return resolution.virtual().identity(resolution.policy());
		}
		return IdentityMode.OAUTH;
	}

	/**
	 * Pins {@code server} of {@code policy} on a request the gateway makes itself for a
	 * virtual server's member, so that every stage decides it against the snapshot the
	 * client's request was routed with.
	 */
	public static void pin(HttpServletRequest request, Policy policy, McpServerPolicy server) {
		request.setAttribute(ATTRIBUTE, new Resolution(policy, server, null));
	}

	private Resolution resolution(HttpServletRequest request) {
		Resolution resolution = (Resolution) request.getAttribute(ATTRIBUTE);
		if (resolution == null) {
			resolution = resolve(request);
			request.setAttribute(ATTRIBUTE, resolution);
		}
		return resolution;
	}

	private Resolution resolve(HttpServletRequest request) {
		if (!this.livePolicy.isLoaded()) {
			return new Resolution(null, null, null);
		}
		Policy policy = this.livePolicy.current();
		String path = UrlPathHelper.defaultInstance.getPathWithinApplication(request);
		return new Resolution(policy, policy.serverAt(path), policy.virtualServerAt(path));
	}

	private record Resolution(@Nullable Policy policy, @Nullable McpServerPolicy server,
			@Nullable VirtualServerPolicy virtual) {
	}

}
