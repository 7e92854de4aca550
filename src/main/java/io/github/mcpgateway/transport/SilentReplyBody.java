package io.github.mcpgateway.transport;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.IntFunction;

import jakarta.servlet.ServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The body of a {@link SilentReply} after its event stream opened: what the stages write
 * as their reply, delivered as the stream's content. Request thread only.
 * <ul>
 * <li>A 200 event stream passes through as it is.</li>
 * <li>A 200 JSON body (not content-encoded) streams as one {@code message} event: its raw
 * CR and LF bytes are left out, which changes nothing in valid JSON (they can only be
 * whitespace there; inside strings they are escaped).</li>
 * <li>Anything else is held, up to {@link #MAX_HELD} bytes, and sent at the end as one
 * {@code message} event: the body itself, on one line, when it is a JSON-RPC response (an
 * error response with no id gets the request's id, so that the client can match it), else
 * the gateway's {@code upstream_http_error} for the status.</li>
 * </ul>
 */
final class SilentReplyBody {

	/** The largest non-JSON or error reply held to find a JSON-RPC response in it. */
	static final int MAX_HELD = 1024 * 1024;

	private static final byte[] EVENT = "event: message\ndata: ".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] END = "\n\n".getBytes(StandardCharsets.US_ASCII);

	private final ServletResponse client;

	private final @Nullable JsonNode id;

	private final IntFunction<byte[]> upstreamError;

	private final JsonMapper json;

	private @Nullable Mode mode;

	private final CappedBuffer held = new CappedBuffer(MAX_HELD);

	/**
	 * @param client the response the stream was opened on
	 * @param id the request's JSON-RPC id
	 * @param upstreamError the gateway's JSON-RPC error response for an upstream status
	 */
	SilentReplyBody(ServletResponse client, @Nullable JsonNode id, IntFunction<byte[]> upstreamError, JsonMapper json) {
		this.client = client;
		this.id = id;
		this.upstreamError = upstreamError;
		this.json = json;
	}

	/** The reply starts with the status and framing the stages declared. */
	void start(int status, @Nullable String contentType, @Nullable String contentEncoding) throws IOException {
		boolean plain = status == 200 && !ContentCoding.isEncoded(contentEncoding);
		if (plain && StreamingMediaTypes.isEventStream(contentType)) {
			this.mode = Mode.RELAY;
		}
		else if (plain && StreamingMediaTypes.isJson(contentType)) {
			this.mode = Mode.EVENT;
			out().write(EVENT);
		}
		else {
			this.mode = Mode.HOLD;
		}
	}

	void write(byte[] buffer, int offset, int length) throws IOException {
		if (this.mode == Mode.RELAY) {
			out().write(buffer, offset, length);
		}
		else if (this.mode == Mode.EVENT) {
			writeOnOneLine(buffer, offset, length);
		}
		else {
			this.held.write(buffer, offset, length);
		}
	}

	void flush() throws IOException {
		if (this.mode != Mode.HOLD) {
			out().flush();
		}
	}

	/** Ends what the stages wrote; {@code status} is the one they declared last. */
	void finish(int status) throws IOException {
		OutputStream out = out();
		if (this.mode == Mode.EVENT) {
			out.write(END);
		}
		else if (this.mode == Mode.HOLD) {
			out.write(EVENT);
			out.write(message(status));
			out.write(END);
		}
		out.flush();
	}

	private void writeOnOneLine(byte[] buffer, int offset, int length) throws IOException {
		OutputStream out = out();
		int from = offset;
		int end = offset + length;
		for (int i = offset; i < end; i++) {
			if (buffer[i] == '\n' || buffer[i] == '\r') {
				out.write(buffer, from, i - from);
				from = i + 1;
			}
		}
		out.write(buffer, from, end - from);
	}

	/** The held body when it is a JSON-RPC response, else the gateway's error. */
	private byte[] message(int status) {
		if (!this.held.overflowed() && this.held.size() > 0) {
			try {
				JsonNode reply = this.json.readTree(this.held.toByteArray());
				if (reply instanceof ObjectNode response && "2.0".equals(response.path("jsonrpc").asString(null))
						&& (response.has("result") || response.has("error"))) {
					if (response.has("error") && !response.hasNonNull("id") && this.id != null) {
						response.set("id", this.id);
					}
					return this.json.writeValueAsBytes(response);
				}
			}
			catch (JacksonException ex) {
				// Not JSON: the gateway's error says what came.
			}
		}
		return this.upstreamError.apply(status);
	}

	private OutputStream out() throws IOException {
		return this.client.getOutputStream();
	}

	private enum Mode {

		RELAY, EVENT, HOLD

	}

}
