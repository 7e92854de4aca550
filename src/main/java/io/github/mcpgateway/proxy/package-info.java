/**
 * The streaming proxy to upstream MCP servers: routes, HTTP client, circuit breaker,
 * bulkhead and failure mapping.
 */
@NullMarked
package io.github.mcpgateway.proxy;

import org.jspecify.annotations.NullMarked;
