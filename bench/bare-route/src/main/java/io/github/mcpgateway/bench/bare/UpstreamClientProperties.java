package io.github.mcpgateway.bench.bare;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The upstream client's settings, read from the gateway's own keys
 * ({@code gateway.proxy.*}, in the gateway's application.yaml that the bare route
 * imports) with the defaults of the gateway's {@code ProxyProperties}: the bare route's
 * client is tuned as the gateway's is. Keys of the gateway's that are not client settings
 * (circuit breaker, bulkhead, stream probe) are ignored.
 *
 * @param connectTimeout time to open a connection, and to lease one from the pool
 * @param firstByteTimeout time from sending the request until the response headers arrive
 * @param idleTimeout longest silence between two reads of a response body
 * @param maxConnections pooled connections to all upstreams together
 * @param maxConnectionsPerUpstream pooled connections to one upstream host
 */
@ConfigurationProperties(prefix = "gateway.proxy")
record UpstreamClientProperties(@DefaultValue("5s") Duration connectTimeout,
		@DefaultValue("60s") Duration firstByteTimeout, @DefaultValue("5m") Duration idleTimeout,
		@DefaultValue("500") int maxConnections, @DefaultValue("200") int maxConnectionsPerUpstream) {
}
