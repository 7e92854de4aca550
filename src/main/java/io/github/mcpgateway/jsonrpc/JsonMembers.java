package io.github.mcpgateway.jsonrpc;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Edits of one member of a JSON object inside a JSON-RPC message, made on its bytes: one
 * streaming pass finds where the member lies, and every other byte stays as it was
 * written, so numbers, escapes and member order reach the other side unchanged (a message
 * parsed and written again would not, and a client compares what it gets with what it
 * sent or would have got).
 *
 * <p>
 * A path names members from the root object down: {@code ("params", "_meta")} is the
 * object {@code params._meta}. Contract: no method throws; a body that is not a JSON
 * object, or whose path is absent or not an object, comes back unchanged. Bodies are
 * those the strict reader admitted or the gateway stored, so a member appears at most
 * once in its object.
 */
public final class JsonMembers {

	private static final JsonFactory JSON = JsonFactory.builder().build();

	private JsonMembers() {
	}

	/**
	 * {@code body} without the member {@code path}: its name, value and one separating
	 * comma with the whitespace around it. An object left empty stays, as {@code {}}.
	 */
	public static byte[] remove(byte[] body, String... path) {
		String name = path[path.length - 1];
		try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), body)) {
			if (!enterObject(parser, Arrays.copyOf(path, path.length - 1))) {
				return body;
			}
			for (JsonToken token = parser.nextToken(); token == JsonToken.PROPERTY_NAME; token = parser.nextToken()) {
				boolean wanted = name.equals(parser.currentName());
				int start = offset(parser);
				parser.nextToken();
				parser.skipChildren();
				if (wanted) {
					// The next member's name or the closing brace: only whitespace and at
					// most one comma lie between the value and it.
					parser.nextToken();
					int end = offset(parser);
					if (body[end] == '}') {
						start = precedingComma(body, start);
					}
					return splice(body, start, end, new byte[0]);
				}
			}
		}
		catch (JacksonException | IndexOutOfBoundsException ex) {
			// Not the JSON the contract takes: unchanged.
		}
		return body;
	}

	/**
	 * {@code body} with {@code member} (raw JSON, {@code "name":value}) as the first
	 * member of the object {@code path}.
	 */
	public static byte[] insertFirst(byte[] body, String member, String... path) {
		try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), body)) {
			if (!enterObject(parser, path)) {
				return body;
			}
			int open = offset(parser);
			boolean empty = parser.nextToken() == JsonToken.END_OBJECT;
			byte[] inserted = (empty ? member : member + ",").getBytes(StandardCharsets.UTF_8);
			return splice(body, open + 1, open + 1, inserted);
		}
		catch (JacksonException | IndexOutOfBoundsException ex) {
			return body;
		}
	}

	/** Whether the member {@code path} is present, whatever its value. */
	public static boolean has(byte[] body, String... path) {
		String name = path[path.length - 1];
		try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), body)) {
			if (!enterObject(parser, Arrays.copyOf(path, path.length - 1))) {
				return false;
			}
			for (JsonToken token = parser.nextToken(); token == JsonToken.PROPERTY_NAME; token = parser.nextToken()) {
				if (name.equals(parser.currentName())) {
					return true;
				}
				parser.nextToken();
				parser.skipChildren();
			}
			return false;
		}
		catch (JacksonException ex) {
			return false;
		}
	}

	/**
	 * Moves a new parser onto the opening brace of the object {@code path} (the root
	 * object for an empty path); {@code false} when there is none.
	 */
	private static boolean enterObject(JsonParser parser, String[] path) {
		if (parser.nextToken() != JsonToken.START_OBJECT) {
			return false;
		}
		for (String name : path) {
			if (!enter(parser, name)) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Moves the parser, inside an object, onto the opening brace of its member
	 * {@code name}'s value; {@code false} when there is no such member or its value is
	 * not an object.
	 */
	public static boolean enter(JsonParser parser, String name) {
		for (JsonToken token = parser.nextToken(); token == JsonToken.PROPERTY_NAME; token = parser.nextToken()) {
			boolean wanted = name.equals(parser.currentName());
			JsonToken value = parser.nextToken();
			if (wanted) {
				return value == JsonToken.START_OBJECT;
			}
			parser.skipChildren();
		}
		return false;
	}

	private static int offset(JsonParser parser) {
		return (int) parser.currentTokenLocation().getByteOffset();
	}

	/**
	 * The offset of the comma before the member at {@code start} (it was the last one, so
	 * the comma that separated it goes with it), or {@code start} when it was the only
	 * one.
	 */
	private static int precedingComma(byte[] body, int start) {
		for (int i = start - 1; i >= 0; i--) {
			byte b = body[i];
			if (b == ',') {
				return i;
			}
			if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
				return start;
			}
		}
		return start;
	}

	private static byte[] splice(byte[] body, int start, int end, byte[] replacement) {
		ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + replacement.length);
		out.write(body, 0, start);
		out.writeBytes(replacement);
		out.write(body, end, body.length - end);
		return out.toByteArray();
	}

}
