package io.github.mcpgateway.idempotency;

import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.security.web.firewall.RequestRejectedException;

import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.transport.McpMetaKeys;

/**
 * An Idempotency-Key as the client sent it: the {@code Idempotency-Key} header, or the
 * {@code params._meta} member {@value McpMetaKeys#IDEMPOTENCY_KEY} (ADR 0020). A key is 1
 * to 255 visible ASCII characters (0x21 to 0x7E): exactly one header value, or a JSON
 * string. Anything else is 400 {@code idempotency_key_invalid}: empty, too long, a space,
 * a control or non-ASCII character, the header given twice, a member that is not a
 * string, or a header and a member that differ. A header and a member that are equal are
 * one key, sent in the message.
 *
 * @param value the key
 * @param inMessage whether the key came in {@code _meta}: the caller then retries by
 * calling again (a new JSON-RPC id) and reads every answer as a JSON-RPC message
 */
record IdempotencyKey(String value, boolean inMessage) {

	static final int MAX_LENGTH = 255;

	/**
	 * The key of a request that carries one ({@link McpMetaKeys#carriesIdempotencyKey});
	 * throws when it is invalid.
	 */
	static IdempotencyKey read(HttpServletRequest request, @Nullable JsonRpcMessage message) {
		String header = header(request);
		JsonNode member = McpMetaKeys.idempotencyKeyIn(message);
		if (member == null) {
			if (header == null) {
				throw invalid();
			}
			return new IdempotencyKey(header, false);
		}
		if (!member.isString() || !isValid(member.stringValue())
				|| (header != null && !header.equals(member.stringValue()))) {
			throw invalid();
		}
		return new IdempotencyKey(member.stringValue(), true);
	}

	/**
	 * The header's key, or {@code null} when the request has none; throws when invalid.
	 */
	private static @Nullable String header(HttpServletRequest request) {
		Enumeration<String> headers;
		try {
			headers = request.getHeaders(McpHeaders.IDEMPOTENCY_KEY);
		}
		catch (RequestRejectedException ex) {
			throw invalid();
		}
		if (headers == null || !headers.hasMoreElements()) {
			return null;
		}
		List<String> values = Collections.list(headers);
		if (values.size() != 1 || !isValid(values.get(0))) {
			throw invalid();
		}
		return values.get(0);
	}

	private static GatewayErrorException invalid() {
		return new GatewayErrorException(GatewayErrors.IDEMPOTENCY_KEY_INVALID);
	}

	static boolean isValid(String key) {
		if (key.isEmpty() || key.length() > MAX_LENGTH) {
			return false;
		}
		for (int i = 0; i < key.length(); i++) {
			char c = key.charAt(i);
			if (c < 0x21 || c > 0x7E) {
				return false;
			}
		}
		return true;
	}

}
