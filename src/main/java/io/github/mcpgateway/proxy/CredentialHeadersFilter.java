package io.github.mcpgateway.proxy;

import java.util.List;

import org.springframework.cloud.gateway.server.mvc.filter.HttpHeadersFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.function.ServerRequest;

import io.github.mcpgateway.principal.IdentityMode;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.UpstreamCredential;
import io.github.mcpgateway.upstreamauth.PrincipalHeaders;

/**
 * Removes the caller's credentials from every proxied request. The gateway verified the
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
 * and, when asked for, the {@link PrincipalHeaders}. Those headers are removed from every
 * request first, so a caller can never set them.
 */
final class CredentialHeadersFilter implements HttpHeadersFilter.RequestHttpHeadersFilter {

	static final List<String> CREDENTIAL_HEADERS = List.of(HttpHeaders.AUTHORIZATION, HttpHeaders.PROXY_AUTHORIZATION,
			HttpHeaders.COOKIE);

	private final List<String> delegatedHeaders;

	CredentialHeadersFilter(List<String> delegatedHeaders) {
		this.delegatedHeaders = List.copyOf(delegatedHeaders);
	}

	@Override
	public HttpHeaders apply(HttpHeaders input, ServerRequest request) {
		McpRequestContext context = McpRequestContext.find(request.servletRequest());
		boolean delegated = context != null && context.server().identity() == IdentityMode.DELEGATED_HEADER;
		HttpHeaders filtered = new HttpHeaders();
		filtered.putAll(input);
		for (String header : CREDENTIAL_HEADERS) {
			if (!delegated || this.delegatedHeaders.stream().noneMatch(header::equalsIgnoreCase)) {
				filtered.remove(header);
			}
		}
		PrincipalHeaders.NAMES.forEach(filtered::remove);
		UpstreamCredential credential = (context != null) ? context.upstreamCredential() : null;
		if (credential != null) {
			filtered.setBearerAuth(credential.bearerToken());
			if (credential.principal() != null) {
				PrincipalHeaders.set(filtered, credential.principal());
			}
		}
		return filtered;
	}

}
