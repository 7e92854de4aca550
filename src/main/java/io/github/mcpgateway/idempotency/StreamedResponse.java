package io.github.mcpgateway.idempotency;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.jsonrpc.MalformedJsonException;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import io.github.mcpgateway.transport.SseEvent;

/**
 * The one final JSON-RPC response of a recorded event stream, when the stream can stand
 * for it in a replay ({@code gateway.idempotency.event-streams: replay}).
 *
 * <p>
 * A stream qualifies only when a replay loses nothing the client needs: it ends with a
 * complete event; every {@code message} event is one JSON-RPC object the gateway reads
 * exactly; it holds exactly one response (result or error) and its id equals the
 * request's; and it holds no server-to-client request (a message with both {@code method}
 * and {@code id}: sampling, elicitation, roots), which a replay could not answer.
 * Notifications (progress, logs) are allowed and dropped: they described the first run,
 * and a replay is not a run. Events without data (a priming event that carries only an
 * id) are ignored.
 */
final class StreamedResponse {

	private StreamedResponse() {
	}

	/** The response's JSON, exactly as the upstream sent it, or empty. */
	static Optional<byte[]> of(byte[] stream, @Nullable JsonNode requestId, StrictJsonReader reader) {
		if (requestId == null) {
			return Optional.empty();
		}
		String response = null;
		int start = 0;
		int end;
		while ((end = SseEvent.eventEnd(stream, start)) > 0) {
			SseEvent event = SseEvent.parse(new String(stream, start, end - start, StandardCharsets.UTF_8));
			start = end;
			if (!event.isMessage()) {
				continue;
			}
			Message message = Message.of(event.data(), requestId, reader);
			if (message == Message.NOTIFICATION) {
				continue;
			}
			if (message == Message.DISQUALIFYING || response != null) {
				return Optional.empty();
			}
			response = event.data();
		}
		if (!isBlank(stream, start) || response == null) {
			// An incomplete last event: the stream did not end cleanly.
			return Optional.empty();
		}
		return Optional.of(response.getBytes(StandardCharsets.UTF_8));
	}

	/** What one {@code message} event's data is to a replay. */
	private enum Message {

		/** The response to the request: a result or an error, with the request's id. */
		RESPONSE,

		/** A notification: dropped from a replay. */
		NOTIFICATION,

		/**
		 * Not read exactly, not one object, a server-to-client request, or a response
		 * that is not the request's: the stream cannot stand for a response.
		 */
		DISQUALIFYING;

		static Message of(String data, JsonNode requestId, StrictJsonReader reader) {
			JsonNode message;
			try {
				message = reader.read(data.getBytes(StandardCharsets.UTF_8));
			}
			catch (MalformedJsonException ex) {
				return DISQUALIFYING;
			}
			if (!message.isObject()) {
				return DISQUALIFYING;
			}
			boolean hasMethod = message.has("method");
			if (hasMethod) {
				return message.has("id") ? DISQUALIFYING : NOTIFICATION;
			}
			boolean isResponse = message.has("result") ^ message.has("error");
			return (isResponse && requestId.equals(message.get("id"))) ? RESPONSE : DISQUALIFYING;
		}

	}

	private static boolean isBlank(byte[] bytes, int from) {
		for (int i = from; i < bytes.length; i++) {
			if (bytes[i] != '\n' && bytes[i] != '\r' && bytes[i] != ' ' && bytes[i] != '\t') {
				return false;
			}
		}
		return true;
	}

}
