package io.github.mcpgateway.task;

import java.io.IOException;
import java.util.function.Consumer;

import jakarta.servlet.http.HttpServletRequest;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.request.CachedBodyRequest;

/**
 * A request body the task stage changes before it goes upstream (a cursor swapped, task
 * ids removed), with every other value as the client sent it: numbers are read exactly
 * ({@link java.math.BigDecimal}, as the request stage's strict reader reads them), so an
 * id such as {@code 1.00000000000000000001} reaches the upstream as sent, not rounded
 * through a double, and the client's SDK matches the reply to its request. The body was
 * admitted by the strict reader already, so reading it again cannot fail on its text.
 */
final class RequestRewrite {

	private final JsonMapper jsonMapper;

	private final ObjectReader exactReader;

	RequestRewrite(JsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
		this.exactReader = jsonMapper.readerFor(ObjectNode.class)
			.with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
	}

	/** {@code request} with its body's root object changed by {@code change}. */
	HttpServletRequest rewrite(HttpServletRequest request, Consumer<ObjectNode> change) throws IOException {
		ObjectNode root = this.exactReader.readValue(request.getInputStream().readAllBytes());
		change.accept(root);
		return CachedBodyRequest.replacing(request, this.jsonMapper.writeValueAsBytes(root));
	}

}
