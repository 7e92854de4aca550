package io.github.mcpgateway.upstreamauth;

import io.github.mcpgateway.policy.UpstreamAuth;
import io.github.mcpgateway.request.McpRequestContext;

/**
 * Records an upstream credential on a request context as the upstream credentials stage
 * would, for tests of what reads it (the proxy's header pass).
 */
public final class TestUpstreamCredentials {

	private TestUpstreamCredentials() {
	}

	/** Records {@code credential} as a fetched client-credentials token. */
	public static void record(McpRequestContext context, UpstreamCredential credential) {
		CredentialHandling.record(context, UpstreamAuth.Mode.CLIENT_CREDENTIALS, CredentialOutcome.FETCHED, credential);
	}

	/** Records how the stage obtained the credential of {@code mode}, without one. */
	public static void record(McpRequestContext context, UpstreamAuth.Mode mode, CredentialOutcome outcome) {
		CredentialHandling.record(context, mode, outcome, null);
	}

}
