package io.github.mcpgateway.upstreamauth;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * The headers that name the verified principal to an upstream whose server entry sets
 * {@code upstream-auth.principal-headers}.
 *
 * <p>
 * Contract: {@link #NAMES} are removed from every proxied request, whatever the server,
 * so a caller can never send them itself; they are then set only from the principal the
 * gateway verified. A value is its UTF-8 bytes with every byte outside visible ASCII
 * ({@code 0x21}-{@code 0x7E}) and every {@code %} percent-encoded (RFC 3986 section 2.1),
 * so it is always a valid header value and decodes to the claim exactly. An absent agent
 * or team sends no header.
 */
public final class PrincipalHeaders {

	public static final String HUMAN = "Mcp-Gateway-Human";

	public static final String AGENT = "Mcp-Gateway-Agent";

	public static final String TEAM = "Mcp-Gateway-Team";

	public static final List<String> NAMES = List.of(HUMAN, AGENT, TEAM);

	private PrincipalHeaders() {
	}

	/** Sets the headers of {@code principal} on {@code headers}. */
	public static void set(HttpHeaders headers, McpPrincipal principal) {
		headers.set(HUMAN, encode(principal.human()));
		setIfPresent(headers, AGENT, principal.agent());
		setIfPresent(headers, TEAM, principal.team());
	}

	private static void setIfPresent(HttpHeaders headers, String name, @Nullable String value) {
		if (value != null) {
			headers.set(name, encode(value));
		}
	}

	static String encode(String value) {
		StringBuilder encoded = null;
		byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
		for (int i = 0; i < bytes.length; i++) {
			int b = bytes[i] & 0xFF;
			boolean plain = b >= 0x21 && b <= 0x7E && b != '%';
			if (!plain && encoded == null) {
				encoded = new StringBuilder(bytes.length + 16).append(value, 0, i);
			}
			if (encoded != null) {
				if (plain) {
					encoded.append((char) b);
				}
				else {
					encoded.append('%')
						.append(Character.toUpperCase(Character.forDigit(b >> 4, 16)))
						.append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
				}
			}
		}
		return (encoded != null) ? encoded.toString() : value;
	}

}
