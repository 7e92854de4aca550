package io.github.mcpgateway.upstreamauth;

import java.util.Locale;

import io.github.mcpgateway.request.AuditTag;

/**
 * How the upstream credential of a request was obtained: the audit line's
 * {@code upstream_auth_outcome} and the {@code outcome} tag of
 * {@code mcp_gateway_upstream_credentials_total}. A bounded set.
 */
public enum CredentialOutcome implements AuditTag {

	/** Taken from the token cache. */
	CACHED,
	/** Fetched from the token endpoint for this request. */
	FETCHED,
	/** The token endpoint said no. */
	REFUSED,
	/** The token endpoint could not be reached or answered too slowly. */
	UNAVAILABLE;

	@Override
	public String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}
