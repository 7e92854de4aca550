package io.github.mcpgateway.proxy;

import java.util.List;

import org.springframework.cloud.gateway.server.mvc.filter.HttpHeadersFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.function.ServerRequest;

/**
 * Removes the caller's credentials from every proxied request. The gateway verified the
 * bearer token for itself; passing it on would be the token passthrough the MCP
 * authorization specification forbids, and would let an upstream replay it elsewhere.
 */
final class CredentialHeadersFilter implements HttpHeadersFilter.RequestHttpHeadersFilter {

	static final List<String> CREDENTIAL_HEADERS = List.of(HttpHeaders.AUTHORIZATION, HttpHeaders.PROXY_AUTHORIZATION,
			HttpHeaders.COOKIE);

	@Override
	public HttpHeaders apply(HttpHeaders input, ServerRequest request) {
		HttpHeaders filtered = new HttpHeaders();
		filtered.putAll(input);
		CREDENTIAL_HEADERS.forEach(filtered::remove);
		return filtered;
	}

}
