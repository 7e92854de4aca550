package io.github.mcpgateway.stdio;

import java.io.ByteArrayInputStream;
import java.io.InputStream;

import org.jspecify.annotations.Nullable;

/**
 * The HTTP response a stdio server's transport gives ({@link StdioTransport}).
 *
 * @param status the HTTP status
 * @param contentType the body's media type, {@code null} without a body
 * @param sessionId the {@code Mcp-Session-Id} of a session this response began
 * @param body the body; an event stream's is read as the process speaks
 */
public record StdioResponse(int status, @Nullable String contentType, @Nullable String sessionId, InputStream body) {

	static StdioResponse json(int status, byte[] body, @Nullable String sessionId) {
		return new StdioResponse(status, "application/json", sessionId, new ByteArrayInputStream(body));
	}

	static StdioResponse empty(int status) {
		return new StdioResponse(status, null, null, InputStream.nullInputStream());
	}

}
