package io.github.mcpgateway.admission;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Caps on what one caller holds at a time ({@code gateway.admission.*}); {@code 0} turns
 * a cap off.
 *
 * @param maxRequestsPerAddress the most requests in flight from one client address
 * ({@code ServletRequest#getRemoteAddr}, the proxy's unless
 * {@code server.forward-headers-strategy} names the client), counted before identity, on
 * every path; past it 429 {@code too_many_requests}
 * @param maxRequestsPerPrincipal the most requests (POST, DELETE) in flight on MCP server
 * paths of one human, across its agents and teams; past it 429 {@code too_many_requests}
 * @param maxStreamsPerPrincipal the most listen streams (GET, and 2026-07-28
 * {@code subscriptions/listen}) one human holds open on MCP server paths; past it 429
 * {@code too_many_streams}
 * @param maxStreams the most listen streams this replica holds open for all callers
 * together; past it 503 {@code stream_capacity}. Each holds a request thread, so it keeps
 * threads for calls however many humans hold streams
 */
@Validated
@ConfigurationProperties(prefix = "gateway.admission", ignoreUnknownFields = false)
public record AdmissionProperties(@DefaultValue("128") @Min(0) int maxRequestsPerAddress,
		@DefaultValue("64") @Min(0) int maxRequestsPerPrincipal, @DefaultValue("32") @Min(0) int maxStreamsPerPrincipal,
		@DefaultValue("100") @Min(0) int maxStreams) {

}
