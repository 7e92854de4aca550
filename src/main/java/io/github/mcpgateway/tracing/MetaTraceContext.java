package io.github.mcpgateway.tracing;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

import io.github.mcpgateway.jsonrpc.JsonMembers;

/**
 * The W3C trace context a JSON-RPC request carries in {@code params._meta}
 * ({@code traceparent}, {@code tracestate}: the MCP trace-context rule, SEP-414), found
 * by one streaming pass over the body, and where its {@code traceparent} value lies in
 * it, so that the value can be replaced in place.
 *
 * <p>
 * Contract: {@link #locate} never throws and never refuses anything: a body that is not
 * JSON, not an object, or has no such member yields {@code null}, and the pipeline
 * decides about it as before. {@link #rewrite} changes only the bytes of the
 * {@code traceparent} value, and only when the new value has the same length and the old
 * one was written without escapes, so every other byte of the body, and its length, stay
 * as the client sent them.
 *
 * @param traceparent the {@code _meta.traceparent} value
 * @param tracestate the {@code _meta.tracestate} value, or {@code null}
 * @param valueOffset the offset in the body of the {@code traceparent} value's first
 * character (after the opening quote), or {@code -1} when it cannot be replaced in place
 */
record MetaTraceContext(String traceparent, @Nullable String tracestate, int valueOffset) {

	/** The W3C header and {@code _meta} member names. */
	public static final String TRACEPARENT = "traceparent";

	/** See {@link #TRACEPARENT}. */
	public static final String TRACESTATE = "tracestate";

	private static final JsonFactory JSON = new JsonFactory();

	private static final byte[] TRACEPARENT_BYTES = TRACEPARENT.getBytes(StandardCharsets.US_ASCII);

	/** The trace context in {@code body}'s {@code params._meta}, or {@code null}. */
	public static @Nullable MetaTraceContext locate(byte[] body) {
		if (!contains(body, TRACEPARENT_BYTES)) {
			// Most bodies name no trace context: no parser for them.
			return null;
		}
		try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), body)) {
			if (parser.nextToken() != JsonToken.START_OBJECT || !JsonMembers.enter(parser, "params")
					|| !JsonMembers.enter(parser, "_meta")) {
				return null;
			}
			String traceparent = null;
			String tracestate = null;
			int offset = -1;
			for (JsonToken token = parser.nextToken(); token == JsonToken.PROPERTY_NAME; token = parser.nextToken()) {
				String name = parser.currentName();
				JsonToken value = parser.nextToken();
				if (value == JsonToken.VALUE_STRING && TRACEPARENT.equals(name)) {
					traceparent = parser.getString();
					offset = plainValueOffset(body, parser.currentTokenLocation().getByteOffset(), traceparent);
				}
				else if (value == JsonToken.VALUE_STRING && TRACESTATE.equals(name)) {
					tracestate = parser.getString();
				}
				else {
					parser.skipChildren();
				}
			}
			return (traceparent != null) ? new MetaTraceContext(traceparent, tracestate, offset) : null;
		}
		catch (JacksonException ex) {
			return null;
		}
	}

	/**
	 * {@code body} with the {@code traceparent} value replaced by {@code traceparent}, in
	 * place; {@code body} itself when it cannot be (see the contract).
	 */
	public byte[] rewrite(byte[] body, String traceparent) {
		byte[] replacement = traceparent.getBytes(StandardCharsets.US_ASCII);
		if (this.valueOffset < 0 || replacement.length != this.traceparent.length()
				|| this.valueOffset + replacement.length > body.length) {
			return body;
		}
		byte[] rewritten = body.clone();
		System.arraycopy(replacement, 0, rewritten, this.valueOffset, replacement.length);
		return rewritten;
	}

	/**
	 * Whether {@code body} holds {@code word}'s bytes: a member name written with escapes
	 * (a rare form no MCP SDK writes) is then not looked for, and the body is forwarded
	 * as if it had no trace context.
	 */
	private static boolean contains(byte[] body, byte[] word) {
		outer: for (int i = 0; i <= body.length - word.length; i++) {
			for (int j = 0; j < word.length; j++) {
				if (body[i + j] != word[j]) {
					continue outer;
				}
			}
			return true;
		}
		return false;
	}

	/**
	 * The offset of the value's first character when the string token at
	 * {@code tokenOffset} holds exactly {@code value}'s ASCII bytes (no escapes), else
	 * {@code -1}.
	 */
	private static int plainValueOffset(byte[] body, long tokenOffset, String value) {
		int start = (int) tokenOffset + 1;
		if (tokenOffset < 0 || body[(int) tokenOffset] != '"' || start + value.length() >= body.length
				|| body[start + value.length()] != '"') {
			return -1;
		}
		for (int i = 0; i < value.length(); i++) {
			if (body[start + i] != value.charAt(i)) {
				return -1;
			}
		}
		return start;
	}

}
