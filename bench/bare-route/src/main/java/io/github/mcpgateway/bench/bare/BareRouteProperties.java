package io.github.mcpgateway.bench.bare;

import java.net.URI;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Where the bare route sends requests ({@code bare.*}).
 *
 * @param upstream base URL (scheme, host, port) every request goes to, its path and query
 * kept: {@code POST /mcp} reaches {@code <upstream>/mcp}
 * @param fixedUpstream base URL that requests to {@code /fixed} go to instead
 * (bench/run.sh's nginx fixed reply); none when absent
 */
@ConfigurationProperties(prefix = "bare")
record BareRouteProperties(URI upstream, @Nullable URI fixedUpstream) {
}
