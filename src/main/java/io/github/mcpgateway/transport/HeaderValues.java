package io.github.mcpgateway.transport;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * Header values as MCP 2026-07-28 encodes them ({@code basic/transports/streamable-http},
 * "Value Encoding"): a value that is not a plain ASCII header value travels as
 * {@code =?base64?<UTF-8 in Base64>?=}, markers case-sensitive, and whoever compares it
 * with the body must decode it first.
 */
public final class HeaderValues {

	private static final String PREFIX = "=?base64?";

	private static final String SUFFIX = "?=";

	private HeaderValues() {
	}

	/**
	 * The value as the client meant it: the decoded text of the Base64 form, or the value
	 * itself; empty when the Base64 form does not decode to UTF-8.
	 */
	public static Optional<String> decode(String value) {
		if (!value.startsWith(PREFIX) || !value.endsWith(SUFFIX)
				|| value.length() < PREFIX.length() + SUFFIX.length()) {
			return Optional.of(value);
		}
		String encoded = value.substring(PREFIX.length(), value.length() - SUFFIX.length());
		try {
			byte[] bytes = Base64.getDecoder().decode(encoded);
			return Optional.of(StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes))
				.toString());
		}
		catch (IllegalArgumentException | CharacterCodingException ex) {
			return Optional.empty();
		}
	}

}
