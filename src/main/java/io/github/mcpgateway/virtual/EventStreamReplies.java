package io.github.mcpgateway.virtual;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a member's reply sent as an event stream (Streamable HTTP, a POST answered with
 * {@code text/event-stream}) that the gateway reads whole: the JSON-RPC response is the
 * last event whose data is a message with an {@code id} and a {@code result} or an
 * {@code error}; notifications and requests before it are not the answer.
 */
final class EventStreamReplies {

	private EventStreamReplies() {
	}

	static @Nullable JsonNode lastResponse(String stream, JsonMapper json) {
		JsonNode response = null;
		StringBuilder data = new StringBuilder();
		for (String line : (stream + "\n\n").split("\r\n|\r|\n", -1)) {
			if (line.isEmpty()) {
				JsonNode message = read(data, json);
				if (message != null && message.has("id") && (message.has("result") || message.has("error"))) {
					response = message;
				}
				data.setLength(0);
			}
			else if (line.startsWith("data:")) {
				if (!data.isEmpty()) {
					data.append('\n');
				}
				data.append(line.startsWith("data: ") ? line.substring(6) : line.substring(5));
			}
		}
		return response;
	}

	private static @Nullable JsonNode read(StringBuilder data, JsonMapper json) {
		if (data.isEmpty()) {
			return null;
		}
		try {
			JsonNode message = json.readTree(data.toString());
			return (message != null && message.isObject()) ? message : null;
		}
		catch (JacksonException ex) {
			return null;
		}
	}

}
