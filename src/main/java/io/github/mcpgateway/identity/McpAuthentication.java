package io.github.mcpgateway.identity;

import java.util.List;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.util.Assert;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * An authenticated MCP caller. Whatever verified it (an OAuth2 JWT today, a client
 * certificate elsewhere), later filters only see the {@link McpPrincipal}. The credential
 * itself is never kept: nothing downstream may forward or log it.
 */
public final class McpAuthentication extends AbstractAuthenticationToken {

	private final McpPrincipal principal;

	private final String method;

	/**
	 * @param principal the verified principal
	 * @param method how it was verified, for audit (for example {@code oauth})
	 */
	public McpAuthentication(McpPrincipal principal, String method) {
		super(List.of());
		Assert.notNull(principal, "principal must not be null");
		Assert.hasText(method, "method must not be empty");
		this.principal = principal;
		this.method = method;
		setAuthenticated(true);
	}

	@Override
	public McpPrincipal getPrincipal() {
		return this.principal;
	}

	@Override
	public Object getCredentials() {
		return "";
	}

	@Override
	public String getName() {
		return this.principal.human();
	}

	public String method() {
		return this.method;
	}

	@Override
	public boolean equals(Object obj) {
		return obj instanceof McpAuthentication other && other.principal.equals(this.principal)
				&& other.method.equals(this.method);
	}

	@Override
	public int hashCode() {
		return this.principal.hashCode();
	}

}
