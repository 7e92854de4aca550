package io.github.mcpgateway.idempotency;

import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.security.web.firewall.RequestRejectedException;

import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.transport.McpHeaders;

/**
 * Reads the {@code Idempotency-Key} header. A key is exactly one header value of 1 to 255
 * visible ASCII characters (0x21 to 0x7E); anything else is 400
 * {@code idempotency_key_invalid}: empty, too long, a space, a control or non-ASCII
 * character, or the header given twice.
 */
public final class IdempotencyKey {

	static final int MAX_LENGTH = 255;

	private IdempotencyKey() {
	}

	/** Whether the request carries the header at all, valid or not. */
	public static boolean isPresent(HttpServletRequest request) {
		try {
			return request.getHeader(McpHeaders.IDEMPOTENCY_KEY) != null;
		}
		catch (RequestRejectedException ex) {
			// Present, with characters the HTTP firewall refuses: read() will call it
			// invalid.
			return true;
		}
	}

	/** The key, or {@code null} when the request has none; throws when it is invalid. */
	static @Nullable String read(HttpServletRequest request) {
		Enumeration<String> headers;
		try {
			headers = request.getHeaders(McpHeaders.IDEMPOTENCY_KEY);
		}
		catch (RequestRejectedException ex) {
			throw new GatewayErrorException(GatewayErrors.IDEMPOTENCY_KEY_INVALID);
		}
		if (headers == null || !headers.hasMoreElements()) {
			return null;
		}
		List<String> values = Collections.list(headers);
		if (values.size() != 1 || !isValid(values.get(0))) {
			throw new GatewayErrorException(GatewayErrors.IDEMPOTENCY_KEY_INVALID);
		}
		return values.get(0);
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
