package io.github.mcpgateway.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.jsonrpc.MalformedJsonException;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;

/**
 * Removes from a list result ({@code tools/list}, {@code tasks/list}) the items a
 * principal may not see.
 *
 * <p>
 * Works on one JSON-RPC message, read by the {@link StrictJsonReader}: a response whose
 * {@code result.<member>} is an array keeps only the items whose {@code <key>} (a string)
 * the caller may see; an item without a string key is removed. Every other member,
 * {@code nextCursor} included, is kept, so a client pages on as before (a page may come
 * back shorter, or empty); unless a cursor rewrite is given ({@link #withCursors}), which
 * replaces a string {@code nextCursor} of every such result (a cursor that is not a
 * string is withheld). The result differs per caller, so a {@code cacheScope} it carries
 * (2026-07-28 {@code server/utilities/caching}) leaves as {@code "private"}, never
 * {@code "public"}: no shared cache may serve it to another caller. Another JSON-RPC
 * object (an error response, a notification) passes unchanged. Anything the gateway
 * cannot read exactly as a client would (text that is not one JSON object: truncated,
 * followed by more content, an array at the top level, a repeated member name a client
 * might read instead) is {@linkplain MessageFilter.Verdict#WITHHOLD withheld}: the
 * gateway withholds what it cannot filter, so that no byte of an item the caller may not
 * see reaches it.
 */
public final class ListResultFilter implements MessageFilter {

	private static final String CACHE_SCOPE = "cacheScope";

	private static final String PRIVATE = "private";

	private static final String NEXT_CURSOR = "nextCursor";

	private final StrictJsonReader reader;

	private final JsonMapper jsonMapper;

	private final String member;

	private final String key;

	private final Function<List<String>, Set<String>> visible;

	private final Consumer<JsonNode> seen;

	private final @Nullable UnaryOperator<String> cursors;

	/**
	 * @param member the result's array member ({@code tools}, {@code tasks})
	 * @param key the item member that names it ({@code name}, {@code taskId})
	 * @param visible which of the listed names the caller may see, asked once per page
	 */
	public ListResultFilter(StrictJsonReader reader, JsonMapper jsonMapper, String member, String key,
			Function<List<String>, Set<String>> visible) {
		this(reader, jsonMapper, member, key, visible, (items) -> {
		});
	}

	/**
	 * @param seen shown every page's items as the upstream listed them, before filtering
	 */
	public ListResultFilter(StrictJsonReader reader, JsonMapper jsonMapper, String member, String key,
			Function<List<String>, Set<String>> visible, Consumer<JsonNode> seen) {
		this(reader, jsonMapper, member, key, visible, seen, null);
	}

	private ListResultFilter(StrictJsonReader reader, JsonMapper jsonMapper, String member, String key,
			Function<List<String>, Set<String>> visible, Consumer<JsonNode> seen,
			@Nullable UnaryOperator<String> cursors) {
		this.reader = reader;
		this.jsonMapper = jsonMapper;
		this.member = member;
		this.key = key;
		this.visible = visible;
		this.seen = seen;
		this.cursors = cursors;
	}

	/**
	 * This filter, that also gives the caller {@code cursors.apply(nextCursor)} in place
	 * of the upstream's {@code nextCursor}: for a list whose cursor is the upstream's
	 * position among items the caller may not see ({@code tasks/list}).
	 */
	public ListResultFilter withCursors(UnaryOperator<String> cursors) {
		return new ListResultFilter(this.reader, this.jsonMapper, this.member, this.key, this.visible, this.seen,
				cursors);
	}

	@Override
	public Verdict filter(byte[] json) {
		JsonNode root = readObject(json);
		if (root == null) {
			return Verdict.WITHHOLD;
		}
		JsonNode result = root.get("result");
		JsonNode items = (result != null) ? result.get(this.member) : null;
		if (items == null) {
			// A cursor without a list to read it by is not relayed unread.
			boolean cursor = this.cursors != null && result != null && result.has(NEXT_CURSOR);
			return cursor ? Verdict.WITHHOLD : Verdict.PASS;
		}
		if (!result.isObject() || !items.isArray()) {
			return Verdict.WITHHOLD;
		}
		this.seen.accept(items);
		return relayed(root, (ObjectNode) result, items.size(), visibleItems(items));
	}

	/** The message as one JSON object, or {@code null} when it is not exactly that. */
	private @Nullable JsonNode readObject(byte[] json) {
		JsonNode root;
		try {
			root = this.reader.read(json);
		}
		catch (MalformedJsonException ex) {
			return null;
		}
		return root.isObject() ? root : null;
	}

	/**
	 * The items the caller may see, in the upstream's order: {@link #visible} is asked
	 * once, with the string keys of the page (not at all when there are none).
	 */
	private ArrayNode visibleItems(JsonNode items) {
		List<String> names = new ArrayList<>(items.size());
		for (JsonNode item : items) {
			JsonNode name = item.get(this.key);
			if (name != null && name.isString()) {
				names.add(name.stringValue());
			}
		}
		Set<String> shown = names.isEmpty() ? Set.of() : this.visible.apply(names);
		ArrayNode kept = this.jsonMapper.createArrayNode();
		for (JsonNode item : items) {
			JsonNode name = item.get(this.key);
			if (name != null && name.isString() && shown.contains(name.stringValue())) {
				kept.add(item);
			}
		}
		return kept;
	}

	/**
	 * The verdict on a list result of {@code listed} items of which {@code kept} remain:
	 * passed unchanged when nothing is removed, no shared {@code cacheScope} is narrowed
	 * and no cursor rewritten; else the message rewritten.
	 */
	private Verdict relayed(JsonNode root, ObjectNode result, int listed, ArrayNode kept) {
		JsonNode scope = result.get(CACHE_SCOPE);
		boolean shared = scope != null && !PRIVATE.equals(scope.asString(null));
		JsonNode cursor = (this.cursors != null) ? result.get(NEXT_CURSOR) : null;
		if (cursor != null && !cursor.isNull() && !cursor.isString()) {
			return Verdict.WITHHOLD;
		}
		boolean recursor = cursor != null && cursor.isString();
		if (kept.size() == listed && !shared && !recursor) {
			return Verdict.PASS;
		}
		if (kept.size() != listed) {
			result.set(this.member, kept);
		}
		if (shared) {
			result.put(CACHE_SCOPE, PRIVATE);
		}
		if (recursor) {
			result.put(NEXT_CURSOR, this.cursors.apply(cursor.stringValue()));
		}
		return Verdict.rewrite(this.jsonMapper.writeValueAsBytes(root));
	}

}
