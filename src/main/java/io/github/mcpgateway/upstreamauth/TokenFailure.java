package io.github.mcpgateway.upstreamauth;

import io.github.mcpgateway.request.RefusalReason;

/**
 * Why no upstream token could be had, as the refusal's reason: the authorization server's
 * OAuth error code ({@code invalid_grant}, {@code invalid_client}, ...) or the failure
 * ({@code unreachable}, {@code timeout}, {@code http_503}, {@code invalid_response},
 * {@code no_subject_token}). Never a token.
 *
 * @param cause the code or failure
 */
record TokenFailure(String cause) implements RefusalReason {

	@Override
	public String auditText() {
		return this.cause;
	}

}
