package io.github.mcpgateway.transport;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.security.web.firewall.RequestRejectedException;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;

/**
 * The gateway's own {@code _meta} members (MCP: a {@code _meta} key may carry a prefix of
 * reverse-DNS labels and a slash; {@code io.github.mcpgateway/} is the gateway's, the
 * reverse of the project's {@code mcpgateway.github.io} namespace), and whether a request
 * carries an Idempotency-Key in either form. ADR 0020.
 */
public final class McpMetaKeys {

	/**
	 * {@code params._meta} member of a {@code tools/call} carrying its Idempotency-Key:
	 * the form an MCP SDK sets per call.
	 */
	public static final String IDEMPOTENCY_KEY = "io.github.mcpgateway/idempotency-key";

	/**
	 * {@code result._meta} member of a reply the gateway replayed for a key sent in
	 * {@code _meta}: {@code {"replayed": true}}.
	 */
	public static final String IDEMPOTENCY = "io.github.mcpgateway/idempotency";

	private McpMetaKeys() {
	}

	/**
	 * The value of {@code message}'s {@code params._meta} Idempotency-Key member, of any
	 * JSON type (a JSON {@code null} included), or {@code null} when it has none.
	 */
	public static @Nullable JsonNode idempotencyKeyIn(@Nullable JsonRpcMessage message) {
		if (message == null || message.params() == null) {
			return null;
		}
		JsonNode meta = message.params().get("_meta");
		return (meta != null && meta.isObject()) ? meta.get(IDEMPOTENCY_KEY) : null;
	}

	/**
	 * Whether the request carries an Idempotency-Key, valid or not, as the header or as
	 * the {@code _meta} member: what makes it a keyed request to every stage.
	 */
	public static boolean carriesIdempotencyKey(HttpServletRequest request, @Nullable JsonRpcMessage message) {
		return hasIdempotencyKeyHeader(request) || idempotencyKeyIn(message) != null;
	}

	/** Whether the request carries the {@code Idempotency-Key} header, valid or not. */
	public static boolean hasIdempotencyKeyHeader(HttpServletRequest request) {
		try {
			return request.getHeader(McpHeaders.IDEMPOTENCY_KEY) != null;
		}
		catch (RequestRejectedException ex) {
			// Present, with characters the HTTP firewall refuses: invalid, but present.
			return true;
		}
	}

}
