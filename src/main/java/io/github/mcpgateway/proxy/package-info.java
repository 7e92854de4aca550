/**
 * The proxy, after the last stage: the Spring Cloud Gateway Server MVC route and its
 * handler, the upstream HTTP client, and the header filters of the proxied request. The
 * stage that admits a request to its upstream and maps its failures is the guard's
 * ({@code io.github.mcpgateway.guard}).
 */
@NullMarked
package io.github.mcpgateway.proxy;

import org.jspecify.annotations.NullMarked;
