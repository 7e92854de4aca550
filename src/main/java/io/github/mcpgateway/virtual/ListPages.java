package io.github.mcpgateway.virtual;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrors;

/**
 * A merged list, served in pages of {@code size} items with the virtual server's own
 * opaque cursors: a member's cursor never reaches the client (the virtual server reads
 * every page of each member), and the client's cursor names a place in the merged list.
 *
 * <p>
 * A cursor is the list method and an offset, Base64url-encoded: opaque to the client as
 * MCP asks, not sealed, because the merged list it indexes is already the caller's own
 * (filtered for them, kept per caller): a client that edits its cursor only skips within
 * what it may see. A cursor that does not decode, or names another list, is
 * {@code list_cursor_invalid}. Between two pages the merged list may change (a member's
 * list changed, the kept lists expired); the next page is then read from the new list at
 * the same offset, as a server's own pages would be.
 */
record ListPages(int size) {

	private static final String VERSION = "v1";

	/**
	 * The page of {@code items} that {@code cursor} ({@code null}: the first) names, put
	 * into {@code result} under {@code array}, with {@code nextCursor} when more follow.
	 */
	void page(ArrayNode items, @Nullable JsonNode cursor, String method, String array, ObjectNode result) {
		int offset = (cursor == null || cursor.isNull()) ? 0 : offset(cursor, method);
		ArrayNode page = result.putArray(array);
		int end = (int) Math.min((long) offset + this.size, items.size());
		for (int i = offset; i < end; i++) {
			page.add(items.get(i));
		}
		if (end < items.size()) {
			result.put("nextCursor", encode(method, end));
		}
	}

	private static String encode(String method, int offset) {
		String text = VERSION + " " + method + " " + offset;
		return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
	}

	private static int offset(JsonNode cursor, String method) {
		if (!cursor.isString()) {
			throw new GatewayErrorException(GatewayErrors.LIST_CURSOR_INVALID);
		}
		try {
			String[] parts = new String(Base64.getUrlDecoder().decode(cursor.asString()), StandardCharsets.UTF_8)
				.split(" ", -1);
			int offset = Integer.parseInt(parts[2]);
			if (parts.length == 3 && VERSION.equals(parts[0]) && method.equals(parts[1]) && offset >= 0) {
				return offset;
			}
		}
		catch (IllegalArgumentException | ArrayIndexOutOfBoundsException ex) {
			// Not one of the virtual server's cursors.
		}
		throw new GatewayErrorException(GatewayErrors.LIST_CURSOR_INVALID);
	}

}
