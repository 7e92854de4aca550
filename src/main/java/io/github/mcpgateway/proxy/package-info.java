/**
 * The last stage and the proxy: {@code UpstreamGuardStage} (an {@code UpstreamPermit} of
 * the server's circuit breaker and bulkhead, the failure mapping), the Spring Cloud
 * Gateway Server MVC route and its handler, the upstream HTTP client (with
 * {@code ObservedRequestFactory}, which tells the pipeline's observer about each upstream
 * call when there is one), the header filters of the proxied request, and what follows a
 * client that leaves (probes, open event streams ended at shutdown). Knows nothing of
 * tracing.
 */
@NullMarked
package io.github.mcpgateway.proxy;

import org.jspecify.annotations.NullMarked;
