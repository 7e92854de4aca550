package io.github.mcpgateway.proxy;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.http.HttpHeaders;

import io.github.mcpgateway.principal.IdentityMode;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.UpstreamHeaderRule;
import io.github.mcpgateway.upstreamauth.PrincipalHeaders;
import io.github.mcpgateway.upstreamauth.UpstreamCredential;

/**
 * Keeps the caller's credentials from every proxied request. The gateway verified the
 * caller for itself; passing the bearer token on would be the token passthrough the MCP
 * authorization specification forbids, and would let an upstream replay it elsewhere.
 *
 * <p>
 * The one exception is a {@code delegated-header} server, an explicit per-server opt-in:
 * it receives the configured caller headers ({@code Authorization} by default) and
 * authenticates the caller itself. See {@code docs/security.md}.
 *
 * <p>
 * A server with {@code upstream-auth} receives, in their place, the credential the
 * upstream credentials stage recorded ({@link UpstreamCredential}): its own bearer token
 * and, when asked for, the {@link PrincipalHeaders}. Those headers are kept from every
 * request first, so a caller can never set them.
 */
final class CredentialHeaders implements UpstreamHeaderRule {

	static final List<String> CREDENTIAL_HEADERS = List.of(HttpHeaders.AUTHORIZATION, HttpHeaders.PROXY_AUTHORIZATION,
			HttpHeaders.COOKIE);

	private static final Set<String> CREDENTIALS = lowerCase(CREDENTIAL_HEADERS);

	private static final Set<String> PRINCIPAL = lowerCase(PrincipalHeaders.NAMES);

	private final Set<String> delegated;

	CredentialHeaders(List<String> delegatedHeaders) {
		this.delegated = lowerCase(delegatedHeaders);
	}

	@Override
	public boolean withholds(String name, McpRequestContext context) {
		if (PRINCIPAL.contains(name)) {
			return true;
		}
		return CREDENTIALS.contains(name)
				&& !(context.server().identity() == IdentityMode.DELEGATED_HEADER && this.delegated.contains(name));
	}

	/** Sets the upstream's own credential, when the request has one. */
	void addTo(HttpHeaders headers, McpRequestContext context) {
		UpstreamCredential credential = context.get(UpstreamCredential.SLOT);
		if (credential != null) {
			headers.setBearerAuth(credential.bearerToken());
			if (credential.principal() != null) {
				PrincipalHeaders.set(headers, credential.principal());
			}
		}
	}

	private static Set<String> lowerCase(List<String> names) {
		return names.stream().map((name) -> name.toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
	}

}
