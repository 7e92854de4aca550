package io.github.mcpgateway.request;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import io.github.mcpgateway.error.RefusalStatus;
import io.github.mcpgateway.jsonrpc.JsonReadLimits;

/**
 * Limits on what clients send ({@code gateway.request.*}).
 *
 * @param maxBodySize the largest JSON-RPC body accepted; larger ones get 413
 * {@code request_too_large} and are never read further or forwarded
 * @param bodyReadTimeout the longest a POST body may take to arrive, from its first read
 * to its last byte; a later body gets 408 {@code request_body_timeout} and the connection
 * is closed (a client dribbling a body would otherwise hold a request thread for as long
 * as it likes)
 * @param json bounds on the JSON of a body (nesting, numbers, strings); a body past one
 * is refused as {@code invalid_request}
 * @param refusalStatus how the gateway answers its decisions to refuse a JSON-RPC request
 * (grants, revocation, tasks): {@code json-rpc} (HTTP 200 with the JSON-RPC error, which
 * MCP SDKs raise as a protocol error) or {@code http} (the error's own status, 403 or
 * 400)
 */
@Validated
@ConfigurationProperties(prefix = "gateway.request", ignoreUnknownFields = false)
public record RequestProperties(@DefaultValue("1MB") @NotNull DataSize maxBodySize,
		@DefaultValue("10s") @NotNull Duration bodyReadTimeout, @DefaultValue @NotNull JsonReadLimits json,
		@DefaultValue("json-rpc") @NotNull RefusalStatus refusalStatus) {

	public RequestProperties {
		if (maxBodySize != null && (maxBodySize.toBytes() < 1 || maxBodySize.toBytes() > Integer.MAX_VALUE - 8)) {
			throw new IllegalArgumentException("gateway.request.max-body-size must be between 1B and 2GB");
		}
		if (bodyReadTimeout != null && (bodyReadTimeout.isNegative() || bodyReadTimeout.isZero())) {
			throw new IllegalArgumentException("gateway.request.body-read-timeout must be positive");
		}
	}

}
