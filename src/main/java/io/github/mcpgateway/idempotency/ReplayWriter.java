package io.github.mcpgateway.idempotency;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

import io.github.mcpgateway.transport.McpHeaders;
import tools.jackson.databind.JsonNode;

/**
 * Answers a retry with a stored reply: its status, {@code Content-Type} and body, and
 * {@code Idempotency-Replayed: true} (the contract). Two extensions of ADR 0008 change
 * the body, and only when on:
 * <ul>
 * <li>{@code request-hash: without-jsonrpc-id}, and every stateless (2026-07-28) request,
 * whose retries carry a new id by rule: a JSON reply carries the retry's own id
 * ({@link ReplayedId});</li>
 * <li>{@code event-streams: replay}: a JSON reply goes to a retry that does not accept
 * JSON as a one-event stream.</li>
 * </ul>
 */
final class ReplayWriter {

	private final boolean streamToStreamClients;

	ReplayWriter(boolean streamToStreamClients) {
		this.streamToStreamClients = streamToStreamClients;
	}

	/**
	 * @param withRetryId whether a JSON reply carries the retry's own id (the request
	 * hash left the id out)
	 */
	void write(HttpServletRequest request, HttpServletResponse response, StoredReply reply, @Nullable JsonNode retryId,
			boolean withRetryId) throws IOException {
		byte[] body = reply.body();
		String contentType = reply.contentType();
		boolean json = isJson(contentType);
		if (json && withRetryId && retryId != null) {
			body = ReplayedId.rewrite(body, retryId);
		}
		if (json && this.streamToStreamClients && !acceptsJson(request)) {
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

	private static boolean isJson(@Nullable String contentType) {
		try {
			return contentType != null
					&& MediaType.APPLICATION_JSON.isCompatibleWith(MediaType.parseMediaType(contentType));
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
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
