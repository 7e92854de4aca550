package io.github.mcpgateway.upstreamauth;

import jakarta.servlet.ServletRequest;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * What the upstream of this request receives in place of the caller's credentials: a
 * bearer token and, when the server entry asks for them, the principal's parts. Attached
 * to the request by {@link UpstreamCredentialFilter}; read by the proxy when it builds
 * the upstream request. Its {@link #toString()} never shows the token.
 *
 * @param bearerToken sent as {@code Authorization: Bearer}
 * @param principal sent in {@link PrincipalHeaders}, or {@code null} for none
 */
public record UpstreamCredential(String bearerToken, @Nullable McpPrincipal principal) {

	private static final String ATTRIBUTE = UpstreamCredential.class.getName();

	/** The credential attached to {@code request}, or {@code null}. */
	public static @Nullable UpstreamCredential find(ServletRequest request) {
		return (UpstreamCredential) request.getAttribute(ATTRIBUTE);
	}

	void attachTo(ServletRequest request) {
		request.setAttribute(ATTRIBUTE, this);
	}

	@Override
	public String toString() {
		return "UpstreamCredential[principal=" + this.principal + "]";
	}

}
