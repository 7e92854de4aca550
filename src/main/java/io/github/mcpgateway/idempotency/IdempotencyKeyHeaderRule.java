package io.github.mcpgateway.idempotency;

import java.util.Locale;

import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.UpstreamHeaderRule;
import io.github.mcpgateway.transport.McpHeaders;

/**
 * Keeps the {@code Idempotency-Key} header from the upstream. The key is the gateway's
 * contract with its client; the upstream sees exactly the request an unkeyed client would
 * send, and the raw key goes no further than the gateway (which never logs it).
 */
final class IdempotencyKeyHeaderRule implements UpstreamHeaderRule {

	private static final String NAME = McpHeaders.IDEMPOTENCY_KEY.toLowerCase(Locale.ROOT);

	@Override
	public boolean withholds(String name, McpRequestContext context) {
		return NAME.equals(name);
	}

}
