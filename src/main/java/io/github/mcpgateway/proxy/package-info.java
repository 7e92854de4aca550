/**
 * The proxy, after the last stage: the Spring Cloud Gateway Server MVC route and its
 * handler, the upstream HTTP client (with {@code ObservedRequestFactory}, which tells the
 * pipeline's observer about each upstream call when there is one), and the header filters
 * of the proxied request. Knows nothing of tracing. The stage that admits a request to
 * its upstream and maps its failures, and what follows a client that leaves (probes, open
 * event streams ended at shutdown), is the guard's ({@code io.github.mcpgateway.guard}).
 */
@NullMarked
package io.github.mcpgateway.proxy;

import org.jspecify.annotations.NullMarked;
