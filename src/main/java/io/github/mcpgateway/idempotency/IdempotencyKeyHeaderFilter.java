package io.github.mcpgateway.idempotency;

import org.springframework.cloud.gateway.server.mvc.filter.HttpHeadersFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.function.ServerRequest;

import io.github.mcpgateway.transport.McpHeaders;

/**
 * Keeps the {@code Idempotency-Key} header from the upstream. The key is the gateway's
 * contract with its client; the upstream sees exactly the request an unkeyed client would
 * send, and the raw key goes no further than the gateway (which never logs it).
 */
final class IdempotencyKeyHeaderFilter implements HttpHeadersFilter.RequestHttpHeadersFilter {

	@Override
	public HttpHeaders apply(HttpHeaders input, ServerRequest request) {
		if (!input.containsHeader(McpHeaders.IDEMPOTENCY_KEY)) {
			return input;
		}
		HttpHeaders filtered = new HttpHeaders();
		filtered.putAll(input);
		filtered.remove(McpHeaders.IDEMPOTENCY_KEY);
		return filtered;
	}

}
