package io.github.mcpgateway.virtual;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.transport.SseEvent;

/**
 * Reads a member's reply sent as an event stream (Streamable HTTP, a POST answered with
 * {@code text/event-stream}) that the gateway reads whole: the JSON-RPC response is the
 * last message event ({@link SseEvent}) whose data is a message with an {@code id} and a
 * {@code result} or an {@code error}; notifications and requests before it are not the
 * answer.
 */
final class EventStreamReplies {

	private EventStreamReplies() {
	}

	static @Nullable JsonNode lastResponse(String stream, JsonMapper json) {
		// A last event the stream ends without its blank line is read as complete.
		byte[] bytes = (stream + "\n\n").getBytes(StandardCharsets.UTF_8);
		JsonNode response = null;
		int start = 0;
		for (int end = SseEvent.eventEnd(bytes, start); end > 0; end = SseEvent.eventEnd(bytes, start)) {
			SseEvent event = SseEvent.parse(new String(bytes, start, end - start, StandardCharsets.UTF_8));
			JsonNode message = event.isMessage() ? read(event.data(), json) : null;
			if (message != null && message.has("id") && (message.has("result") || message.has("error"))) {
				response = message;
			}
			start = end;
		}
		return response;
	}

	private static @Nullable JsonNode read(@Nullable String data, JsonMapper json) {
		try {
			JsonNode message = (data != null) ? json.readTree(data) : null;
			return (message != null && message.isObject()) ? message : null;
		}
		catch (JacksonException ex) {
			return null;
		}
	}

}
