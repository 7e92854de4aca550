package io.github.mcpgateway.upstreamauth;

import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.UpstreamAuth;
import io.github.mcpgateway.request.AuditContribution;
import io.github.mcpgateway.request.ContextSlot;
import io.github.mcpgateway.request.McpRequestContext;

/**
 * How the upstream credentials stage handled a request, in its {@link #SLOT}, which only
 * this package writes: the audit line's {@code upstream_auth} and
 * {@code upstream_auth_outcome} fields. Never the token.
 *
 * @param mode the server's upstream credential mode ({@code token-exchange},
 * {@code client-credentials})
 * @param outcome {@code cached}, {@code fetched}, {@code refused} or {@code unavailable}
 */
public record CredentialHandling(UpstreamAuth.Mode mode, CredentialOutcome outcome) implements AuditContribution {

	/** The stage's outcome of the request, absent when the server needs no credential. */
	public static final ContextSlot<CredentialHandling> SLOT = ContextSlot.declare("upstream auth");

	private static final ContextSlot.Writer<CredentialHandling> writer = SLOT.writer();

	private static final ContextSlot.Writer<UpstreamCredential> credentialWriter = UpstreamCredential.SLOT.writer();

	/** Where its fields go in the audit line: after the Idempotency-Key's. */
	static final int POSITION = 200;

	/**
	 * Records how the stage handled the request of {@code context}, and the credential
	 * its upstream receives ({@code null}: none).
	 */
	static void record(McpRequestContext context, UpstreamAuth.Mode mode, CredentialOutcome outcome,
			@Nullable UpstreamCredential credential) {
		writer.put(context, new CredentialHandling(mode, outcome));
		if (credential != null) {
			credentialWriter.put(context, credential);
		}
	}

	@Override
	public int position() {
		return POSITION;
	}

	@Override
	public void writeFields(BiConsumer<String, @Nullable String> field) {
		field.accept("upstream_auth", this.mode.tag());
		field.accept("upstream_auth_outcome", this.outcome.tag());
	}

}
