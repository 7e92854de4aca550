package io.github.mcpgateway.revocation;

/** Names of the revocation meters. */
final class RevocationMeters {

	/** Counter of source reads, tagged {@code result=ok|failed}. */
	static final String SYNCS = "mcp.gateway.revocation.syncs";

	/**
	 * Gauge: seconds since the last good read of the source (grows while the source is
	 * broken).
	 */
	static final String SYNC_AGE = "mcp.gateway.revocation.sync.age";

	/** Gauge: revoked session ids in force. */
	static final String REVOKED_SESSIONS = "mcp.gateway.revocation.sessions";

	/** Gauge: revoked principal rules in force. */
	static final String REVOKED_PRINCIPALS = "mcp.gateway.revocation.principals";

	private RevocationMeters() {
	}

}
