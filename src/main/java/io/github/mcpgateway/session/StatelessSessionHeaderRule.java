package io.github.mcpgateway.session;

import java.util.Locale;

import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.UpstreamHeaderRule;
import io.github.mcpgateway.transport.McpHeaders;

/**
 * Keeps an {@code Mcp-Session-Id} of a stateless request (2026-07-28) from the upstream.
 * That revision has no sessions, so the session stage checks no binding for such a
 * request; an upstream that also speaks the 2025 revisions might still honour the id, and
 * would then serve a session the gateway never checked was the caller's.
 */
final class StatelessSessionHeaderRule implements UpstreamHeaderRule {

	private static final String NAME = McpHeaders.SESSION_ID.toLowerCase(Locale.ROOT);

	@Override
	public boolean withholds(String name, McpRequestContext context) {
		return context.stateless() && NAME.equals(name);
	}

}
