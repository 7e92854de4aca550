package io.github.mcpgateway.upstreamauth;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.ContextSlot;

/**
 * What the upstream of this request receives in place of the caller's credentials: a
 * bearer token and, when the server entry asks for them, the principal's parts. Recorded
 * in its {@link #SLOT} by the upstream credentials stage (its one writer); read by the
 * proxy when it builds the upstream request. Its {@link #toString()} never shows the
 * token.
 *
 * @param bearerToken sent as {@code Authorization: Bearer}
 * @param principal sent in the upstream credentials stage's principal headers, or
 * {@code null} for none
 */
public record UpstreamCredential(String bearerToken, @Nullable McpPrincipal principal) {

	/** The credential the upstream receives, absent when it receives none. */
	public static final ContextSlot<UpstreamCredential> SLOT = ContextSlot.declare("upstream credential");

	@Override
	public String toString() {
		return "UpstreamCredential[principal=" + this.principal + "]";
	}

}
