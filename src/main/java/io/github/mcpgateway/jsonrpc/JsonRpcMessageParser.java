package io.github.mcpgateway.jsonrpc;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage.Kind;

/**
 * Parses the body of an MCP POST into a {@link JsonRpcMessage}.
 *
 * <p>
 * Accepts exactly one JSON-RPC 2.0 object (MCP 2025-06-18 and later removed batches).
 * Refuses, with {@link GatewayErrors#BATCH_NOT_SUPPORTED}, an array: a batch mixes
 * methods that the policy and the idempotency contract decide one by one, so the gateway
 * cannot authorise it as a whole. Refuses with {@link GatewayErrors#INVALID_REQUEST}
 * malformed JSON, a non-object, a missing or wrong {@code jsonrpc} member, a non-string
 * method, an id that is neither string, number nor null, a {@code tools/call} without a
 * string {@code params.name}, and every body the {@link StrictJsonReader} refuses
 * (invalid UTF-8, a repeated member name, a number or nesting past the limits: anything
 * the gateway and the upstream could read differently). Numbers are read exactly, never
 * rounded through a double.
 *
 * <p>
 * A message is a notification only if its method is one: a name that starts with
 * {@code notifications/} (the only methods MCP lets a client send without an id). A
 * message of any other method without an id, or with {@code id: null} (MCP: a request id
 * MUST NOT be null, so null is read as no id), is refused with
 * {@link GatewayErrors#REQUEST_ID_MISSING}: the gateway governs a request by the item it
 * names, and an upstream may run an id-less {@code tools/call} (or cancel a task, read a
 * resource) without answering, so such a message must not pass as a notification that
 * only the server-level rules looked at. A response keeps the id it was sent with,
 * {@code null} included (JSON-RPC's "id could not be determined").
 */
public final class JsonRpcMessageParser {

	private final StrictJsonReader reader;

	public JsonRpcMessageParser(StrictJsonReader reader) {
		Assert.notNull(reader, "reader must not be null");
		this.reader = reader;
	}

	public JsonRpcMessage parse(byte[] body) {
		JsonNode root = readTree(body);
		if (root.isArray()) {
			throw new GatewayErrorException(GatewayErrors.BATCH_NOT_SUPPORTED);
		}
		if (!root.isObject() || !"2.0".equals(root.path("jsonrpc").stringValue(null))) {
			throw invalid();
		}
		JsonNode id = root.get("id");
		if (id != null && !(id.isString() || id.isNumber() || id.isNull())) {
			throw invalid();
		}
		JsonNode method = root.get("method");
		if (method == null) {
			return parseResponse(root, id);
		}
		if (!method.isString() || method.stringValue().isEmpty()) {
			throw invalid();
		}
		JsonNode params = root.get("params");
		if (params != null && !(params.isObject() || params.isArray())) {
			throw invalid();
		}
		if (id == null || id.isNull()) {
			if (!JsonRpcMessage.isNotificationMethod(method.stringValue())) {
				throw new GatewayErrorException(GatewayErrors.REQUEST_ID_MISSING);
			}
			return new JsonRpcMessage(Kind.NOTIFICATION, null, method.stringValue(), params, null);
		}
		String toolName = null;
		if (JsonRpcMessage.TOOLS_CALL.equals(method.stringValue())) {
			toolName = toolName(params);
		}
		return new JsonRpcMessage(Kind.REQUEST, id, method.stringValue(), params, toolName);
	}

	private JsonRpcMessage parseResponse(JsonNode root, @Nullable JsonNode id) {
		boolean hasOutcome = root.has("result") ^ root.has("error");
		if (id == null || !hasOutcome) {
			throw invalid();
		}
		return new JsonRpcMessage(Kind.RESPONSE, id, null, null, null);
	}

	private static String toolName(@Nullable JsonNode params) {
		JsonNode name = (params != null) ? params.get("name") : null;
		if (name == null || !name.isString() || name.stringValue().isEmpty()) {
			throw invalid();
		}
		return name.stringValue();
	}

	private JsonNode readTree(byte[] body) {
		try {
			return this.reader.read(body);
		}
		catch (MalformedJsonException ex) {
			throw invalid();
		}
	}

	private static GatewayErrorException invalid() {
		return new GatewayErrorException(GatewayErrors.INVALID_REQUEST);
	}

}
