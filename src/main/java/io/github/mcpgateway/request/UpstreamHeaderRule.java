package io.github.mcpgateway.request;

/**
 * A request header a capability keeps from the upstream, checked by the proxy in its one
 * pass over the headers it sends (the Idempotency-Key stage keeps the key, the session
 * stage a stateless request's session id). A rule decides by name only; it never copies
 * headers.
 */
@FunctionalInterface
public interface UpstreamHeaderRule {

	/**
	 * Whether the header {@code name} (lower case) is kept from the upstream of this
	 * request.
	 */
	boolean withholds(String name, McpRequestContext context);

}
