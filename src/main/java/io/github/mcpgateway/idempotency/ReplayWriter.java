package io.github.mcpgateway.idempotency;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

import io.github.mcpgateway.jsonrpc.JsonMembers;
import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.transport.McpMetaKeys;
import io.github.mcpgateway.transport.StreamingMediaTypes;

/**
 * Answers a retry with a stored reply: its status, {@code Content-Type} and body, and
 * {@code Idempotency-Replayed: true} (the contract). The {@link Form} of the replay
 * changes a JSON body, and only where the key's form or an extension asks for it:
 * <ul>
 * <li>{@link Form#retryId}: the retry's own JSON-RPC id ({@link ReplayedId}), for a
 * request hash that leaves the id out ({@code request-hash: without-jsonrpc-id}, a
 * stateless 2026-07-28 request, a key in {@code _meta});</li>
 * <li>{@link Form#marked}: {@code result._meta["io.github.mcpgateway/idempotency"]} =
 * {@code {"replayed": true}}, for a key in {@code _meta}, whose SDK drops the header (ADR
 * 0020);</li>
 * <li>{@link Form#streamToStreamClients}: a one-event stream to a retry that does not
 * accept JSON ({@code event-streams: replay}, a key in {@code _meta}).</li>
 * </ul>
 */
final class ReplayWriter {

	/** The marker member, as raw JSON. */
	private static final String MARKER = "\"" + McpMetaKeys.IDEMPOTENCY + "\":{\"replayed\":true}";

	/**
	 * How a replay is written.
	 *
	 * @param retryId whether a JSON reply carries the retry's own id
	 * @param marked whether a JSON result is marked replayed in its {@code _meta}
	 * @param streamToStreamClients whether a JSON reply goes to a retry that does not
	 * accept JSON as a one-event stream
	 */
	record Form(boolean retryId, boolean marked, boolean streamToStreamClients) {

		/** The form of a key sent in {@code _meta}: all three. */
		static final Form IN_MESSAGE = new Form(true, true, true);

	}

	void write(HttpServletRequest request, HttpServletResponse response, StoredReply reply, @Nullable JsonNode retryId,
			Form form) throws IOException {
		byte[] body = reply.body();
		String contentType = reply.contentType();
		boolean json = StreamingMediaTypes.isJson(contentType);
		if (json && form.retryId() && retryId != null) {
			body = ReplayedId.rewrite(body, retryId);
		}
		if (json && form.marked()) {
			body = marked(body);
		}
		if (json && form.streamToStreamClients() && !acceptsJson(request)) {
			body = ("event: message\ndata: " + new String(body, StandardCharsets.UTF_8) + "\n\n")
				.getBytes(StandardCharsets.UTF_8);
			contentType = MediaType.TEXT_EVENT_STREAM_VALUE;
		}
		response.setStatus(reply.status());
		if (contentType != null) {
			response.setContentType(contentType);
		}
		response.setHeader(McpHeaders.IDEMPOTENCY_REPLAYED, "true");
		response.setContentLength(body.length);
		response.getOutputStream().write(body);
		response.flushBuffer();
	}

	/**
	 * The response with its result marked replayed: the marker is the first member of
	 * {@code result._meta} (added when the result has none), and a marker the upstream
	 * wrote itself is replaced. A response without a result object (an error), or whose
	 * {@code result._meta} is not an object, is left unmarked.
	 */
	static byte[] marked(byte[] response) {
		byte[] body = JsonMembers.remove(response, "result", "_meta", McpMetaKeys.IDEMPOTENCY);
		if (JsonMembers.has(body, "result", "_meta")) {
			byte[] marked = JsonMembers.insertFirst(body, MARKER, "result", "_meta");
			return (marked != body) ? marked : response;
		}
		byte[] marked = JsonMembers.insertFirst(body, "\"_meta\":{" + MARKER + "}", "result");
		return (marked != body) ? marked : response;
	}

	private static boolean acceptsJson(HttpServletRequest request) {
		String accept = request.getHeader(HttpHeaders.ACCEPT);
		if (accept == null || accept.isBlank()) {
			return true;
		}
		try {
			return MediaType.parseMediaTypes(accept)
				.stream()
				.anyMatch((type) -> type.includes(MediaType.APPLICATION_JSON));
		}
		catch (IllegalArgumentException ex) {
			return true;
		}
	}

}
