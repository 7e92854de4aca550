package io.github.mcpgateway.request;

import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.transport.McpHeaders;

/**
 * The headers a request may carry at most once, and the refusal of a request that repeats
 * one. The gateway decides on one value of each ({@code getHeader} reads the first) and
 * forwards them all, so an upstream that reads another could route, authorise or key a
 * call on a value no rule looked at: two {@code Mcp-Name} headers {@code echo} and
 * {@code get-env}, say.
 * <ul>
 * <li>the 2026-07-28 routing headers ({@code MCP-Protocol-Version}, {@code Mcp-Method},
 * {@code Mcp-Name}, {@code Mcp-Param-*}): {@link GatewayErrors#HEADER_MISMATCH}, the
 * error that revision names for a malformed routing header (-32020);</li>
 * <li>{@code Mcp-Session-Id}: {@link GatewayErrors#HEADER_INVALID};</li>
 * <li>{@code Idempotency-Key}: {@link GatewayErrors#IDEMPOTENCY_KEY_INVALID}, as the
 * key's own contract says (one header);</li>
 * <li>{@code Content-Type}: {@link GatewayErrors#UNSUPPORTED_MEDIA_TYPE}, since the media
 * type and charset the body is read in must be the one the upstream reads it in.</li>
 * </ul>
 * Header names are compared case-insensitively (RFC 9110, section 5.1).
 */
final class SingleValuedHeaders {

	private static final String PARAM_PREFIX = "mcp-param-";

	private static final Map<String, GatewayError> REFUSALS = Map.of(lower(McpHeaders.PROTOCOL_VERSION),
			GatewayErrors.HEADER_MISMATCH, lower(McpHeaders.METHOD), GatewayErrors.HEADER_MISMATCH,
			lower(McpHeaders.NAME), GatewayErrors.HEADER_MISMATCH, lower(McpHeaders.SESSION_ID),
			GatewayErrors.HEADER_INVALID, lower(McpHeaders.IDEMPOTENCY_KEY), GatewayErrors.IDEMPOTENCY_KEY_INVALID,
			lower(HttpHeaders.CONTENT_TYPE), GatewayErrors.UNSUPPORTED_MEDIA_TYPE);

	private SingleValuedHeaders() {
	}

	/**
	 * The refusal of a request that sends header {@code name} {@code count} times, or
	 * {@code null} when that is allowed.
	 */
	static @Nullable GatewayError refusal(String name, int count) {
		if (count < 2) {
			return null;
		}
		String key = lower(name);
		return key.startsWith(PARAM_PREFIX) ? GatewayErrors.HEADER_MISMATCH : REFUSALS.get(key);
	}

	private static String lower(String name) {
		return name.toLowerCase(Locale.ROOT);
	}

}
