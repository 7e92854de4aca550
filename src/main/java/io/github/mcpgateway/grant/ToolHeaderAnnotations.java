package io.github.mcpgateway.grant;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.transport.HeaderValues;

/**
 * The {@code x-mcp-header} annotations of each server's tools (MCP 2026-07-28,
 * {@code server/tools}, "x-mcp-header"), learned from the {@code tools/list} replies the
 * gateway filters, and the check of a call's {@code Mcp-Param-*} headers against them.
 *
 * <p>
 * A tool may mirror parameters into {@code Mcp-Param-<name>} headers; whoever reads the
 * body must check that each such header, decoded, equals the parameter's value, and that
 * a parameter with a value has its header (streamable-http, "Server Behavior for Custom
 * Headers"). The gateway knows a tool's annotations only once it has relayed a list that
 * shows the tool; until then (or for a tool the list no longer shows) it forwards the
 * headers unchecked, as the revision requires of an intermediary that does not recognise
 * them, and the upstream checks them. Annotations are read as the revision allows them:
 * on a property reached from the schema root through {@code properties} alone.
 *
 * <p>
 * Bounded: at most {@link #MAX_SERVERS} servers (least recently listed dropped) and
 * {@link #MAX_TOOLS} annotated tools per server. Thread-safe.
 */
final class ToolHeaderAnnotations {

	static final int MAX_SERVERS = 1000;

	static final int MAX_TOOLS = 10_000;

	private static final String PREFIX = "Mcp-Param-";

	private final Cache<String, Map<String, List<ParamHeader>>> servers = Caffeine.newBuilder()
		.maximumSize(MAX_SERVERS)
		.build();

	/** Learns the annotations of the tools in one {@code tools/list} page. */
	void learn(String server, JsonNode tools) {
		Map<String, List<ParamHeader>> known = this.servers.get(server, (key) -> new ConcurrentHashMap<>());
		for (JsonNode tool : tools) {
			JsonNode name = tool.get("name");
			if (name == null || !name.isString()) {
				continue;
			}
			List<ParamHeader> headers = new ArrayList<>();
			collect(tool.path("inputSchema"), new ArrayList<>(), headers);
			if (headers.isEmpty()) {
				known.remove(name.stringValue());
			}
			else if (known.size() < MAX_TOOLS || known.containsKey(name.stringValue())) {
				known.put(name.stringValue(), List.copyOf(headers));
			}
		}
	}

	/**
	 * Whether the call's {@code Mcp-Param-*} headers agree with its arguments, as far as
	 * the tool's annotations are known.
	 */
	boolean agree(HttpServletRequest request, String server, String tool, @Nullable JsonNode arguments) {
		Map<String, List<ParamHeader>> known = this.servers.getIfPresent(server);
		List<ParamHeader> headers = (known != null) ? known.get(tool) : null;
		if (headers == null) {
			return true;
		}
		for (ParamHeader header : headers) {
			JsonNode value = header.valueIn(arguments);
			String sent = request.getHeader(PREFIX + header.name());
			if (value == null || value.isNull()) {
				if (sent != null) {
					return false;
				}
				continue;
			}
			if (sent == null || !HeaderValues.decode(sent).map((text) -> equal(text, value)).orElse(false)) {
				return false;
			}
		}
		return true;
	}

	/** A header value against a primitive body value; integers compare numerically. */
	private static boolean equal(String header, JsonNode value) {
		if (value.isString()) {
			return header.equals(value.stringValue());
		}
		if (value.isBoolean()) {
			return header.equals(Boolean.toString(value.booleanValue()));
		}
		if (value.isNumber()) {
			try {
				return new BigDecimal(header).compareTo(value.decimalValue()) == 0;
			}
			catch (NumberFormatException ex) {
				return false;
			}
		}
		return false;
	}

	private static void collect(JsonNode schema, List<String> path, List<ParamHeader> headers) {
		JsonNode properties = schema.path("properties");
		if (!properties.isObject()) {
			return;
		}
		for (Map.Entry<String, JsonNode> property : properties.properties()) {
			List<String> at = new ArrayList<>(path);
			at.add(property.getKey());
			JsonNode header = property.getValue().get("x-mcp-header");
			if (header != null && header.isString() && !header.stringValue().isEmpty()) {
				headers.add(new ParamHeader(header.stringValue(), List.copyOf(at)));
			}
			collect(property.getValue(), at, headers);
		}
	}

	/**
	 * One mirrored parameter.
	 *
	 * @param name the {@code <name>} of its {@code Mcp-Param-<name>} header
	 * @param path the {@code properties} keys from the arguments' root to it
	 */
	record ParamHeader(String name, List<String> path) {

		@Nullable JsonNode valueIn(@Nullable JsonNode arguments) {
			JsonNode node = arguments;
			for (String key : this.path) {
				if (node == null || !node.isObject()) {
					return null;
				}
				node = node.get(key);
			}
			return node;
		}

	}

}
