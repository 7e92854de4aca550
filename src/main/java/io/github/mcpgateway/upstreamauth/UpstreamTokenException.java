package io.github.mcpgateway.upstreamauth;

/**
 * A token endpoint did not give the gateway a token. Carries no token and no text from
 * the endpoint other than its OAuth error code.
 */
final class UpstreamTokenException extends RuntimeException {

	private final boolean refused;

	private final String reason;

	private UpstreamTokenException(boolean refused, String reason) {
		super(reason, null, false, false);
		this.refused = refused;
		this.reason = reason;
	}

	/**
	 * The endpoint answered and said no ({@code invalid_grant}, {@code invalid_client},
	 * ...).
	 */
	static UpstreamTokenException refused(String reason) {
		return new UpstreamTokenException(true, reason);
	}

	/** The endpoint could not be reached, was too slow or failed. */
	static UpstreamTokenException unavailable(String reason) {
		return new UpstreamTokenException(false, reason);
	}

	boolean refused() {
		return this.refused;
	}

	/** The OAuth error code or failure kind, for the audit line. */
	String reason() {
		return this.reason;
	}

}
