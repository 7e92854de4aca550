package io.github.mcpgateway.request;

import jakarta.servlet.ServletRequest;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.upstreamauth.TestUpstreamCredentials;
import io.github.mcpgateway.upstreamauth.UpstreamCredential;

/**
 * Request contexts for tests of what reads them (the proxy's header pass, for one), as
 * the request stage would have opened and filled them.
 */
public final class TestRequestContexts {

	private TestRequestContexts() {
	}

	/**
	 * Opens the context of {@code request}, for {@code server} and {@code principal}, of
	 * a stateless revision or not; records {@code credential} as the upstream credentials
	 * stage would when it is not {@code null}.
	 */
	public static McpRequestContext open(ServletRequest request, McpServerPolicy server,
			@Nullable McpPrincipal principal, boolean stateless, @Nullable UpstreamCredential credential) {
		McpRequestContext context = McpRequestContext.open(request, server, principal, System.nanoTime());
		context.parsed(null, null, stateless);
		if (credential != null) {
			TestUpstreamCredentials.record(context, credential);
		}
		return context;
	}

	/** Records that {@code context}'s request was refused, as the pipeline would. */
	public static void refused(McpRequestContext context, GatewayError error, @Nullable RefusalReason reason) {
		context.refused(error, reason);
	}

}
