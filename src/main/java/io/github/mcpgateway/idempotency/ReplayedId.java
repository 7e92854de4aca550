package io.github.mcpgateway.idempotency;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;

/**
 * Gives a stored JSON-RPC response the id of the retry it answers
 * ({@code gateway.idempotency.request-hash: without-jsonrpc-id}): the value of the
 * top-level {@code id} member is replaced and every other byte stays as stored.
 *
 * <p>
 * Why not parse and write the document again: a client compares the replay with what it
 * would have got, and re-serialising changes number forms, escapes and member order. The
 * streaming parser finds the byte span of the top-level id's value; nested {@code id}
 * members (inside {@code result}) are never touched.
 */
final class ReplayedId {

	private static final JsonFactory JSON = JsonFactory.builder().build();

	private ReplayedId() {
	}

	/**
	 * The response with its top-level id replaced by {@code id}; the response itself when
	 * it is not a JSON object with a top-level id.
	 */
	static byte[] rewrite(byte[] response, JsonNode id) {
		long start = -1;
		long end = -1;
		try (JsonParser parser = JSON.createParser(response)) {
			if (parser.nextToken() != JsonToken.START_OBJECT) {
				return response;
			}
			JsonToken token;
			while ((token = parser.nextToken()) != JsonToken.END_OBJECT && token != null) {
				String name = parser.currentName();
				JsonToken value = parser.nextToken();
				if ("id".equals(name) && value != null && value.isScalarValue()) {
					start = parser.currentTokenLocation().getByteOffset();
					parser.getString();
					end = parser.currentLocation().getByteOffset();
					break;
				}
				parser.skipChildren();
			}
		}
		catch (JacksonException ex) {
			return response;
		}
		if (start < 0 || end <= start || end > response.length) {
			return response;
		}
		ByteArrayOutputStream out = new ByteArrayOutputStream(response.length + 16);
		out.write(response, 0, (int) start);
		out.writeBytes(id.toString().getBytes(StandardCharsets.UTF_8));
		out.write(response, (int) end, response.length - (int) end);
		return out.toByteArray();
	}

}
