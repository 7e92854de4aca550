/**
 * The upstream guard, the last stage before the proxy: {@code UpstreamGuardStage} admits
 * an allowed request to its upstream with an {@code UpstreamPermit} of the server's
 * circuit breaker and bulkhead ({@code UpstreamResilience}), or refuses it before
 * dispatch; it wraps the reply the proxy writes ({@code TappedResponse} over
 * {@code ClientAwareResponse}), maps upstream failures to gateway errors
 * ({@code UpstreamFailure}), and follows a client that leaves (probes, open event streams
 * ended at shutdown). Configured through {@code UpstreamGuardSettings}, which the proxy's
 * properties implement.
 */
@NullMarked
package io.github.mcpgateway.guard;

import org.jspecify.annotations.NullMarked;
