/**
 * The last stage and the proxy: {@code UpstreamGuardStage} (an {@code UpstreamPermit} of
 * the server's circuit breaker and bulkhead, the failure mapping), the Spring Cloud
 * Gateway Server MVC route and its handler, the upstream HTTP client, the header filters
 * of the proxied request, and what follows a client that leaves (probes, open event
 * streams ended at shutdown).
 */
@NullMarked
package io.github.mcpgateway.proxy;

import org.jspecify.annotations.NullMarked;
