package io.github.mcpgateway.request;

import jakarta.servlet.http.HttpServletRequest;

import io.github.mcpgateway.error.GatewayError;

/**
 * A later stage's say in how the request stage answers a request it refuses, before that
 * stage runs. The Idempotency-Key contract uses it: a keyed request that is not one valid
 * {@code tools/call} is answered {@code idempotency_unsupported_request}, so that the
 * client learns no guarantee applied. Implementations may record on the request's
 * {@link McpRequestContext}.
 */
@FunctionalInterface
public interface RequestRefusalCustomizer {

	/** The error to answer instead of {@code error}, or {@code error} itself. */
	GatewayError customize(HttpServletRequest request, GatewayError error);

}
