package io.github.mcpgateway.principal;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How the gateway learns who calls an MCP server, as named in the policy file. */
public enum IdentityMode {

	/** An OAuth2 bearer JWT, verified by the gateway. The default. */
	@JsonProperty("oauth")
	OAUTH,

	/**
	 * A client certificate presented in the TLS handshake and verified by the trust
	 * store.
	 */
	@JsonProperty("adapter-certificate")
	ADAPTER_CERTIFICATE,

	/**
	 * The caller's credentials are forwarded to the upstream unverified (token
	 * passthrough). The request has no verified principal. Opt-in per server; see
	 * {@code docs/security.md}.
	 */
	@JsonProperty("delegated-header")
	DELEGATED_HEADER

}
