package io.github.mcpgateway.session;

import java.util.function.Consumer;
import java.util.function.IntConsumer;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.transport.McpHeaders;

/**
 * Sees the upstream's status and the {@code Mcp-Session-Id} it returns the moment the
 * proxy sets them, before any byte of the reply reaches the client: a binding exists
 * before the client can use a new id, and an ended session is gone (on every replica,
 * with a shared store) before the client can send its next request.
 */
final class SessionCapturingResponse extends HttpServletResponseWrapper {

	private final Consumer<String> onSessionId;

	private final IntConsumer onStatus;

	SessionCapturingResponse(HttpServletResponse response, Consumer<String> onSessionId, IntConsumer onStatus) {
		super(response);
		this.onSessionId = onSessionId;
		this.onStatus = onStatus;
	}

	@Override
	public void setStatus(int status) {
		this.onStatus.accept(status);
		super.setStatus(status);
	}

	@Override
	public void setHeader(String name, @Nullable String value) {
		capture(name, value);
		super.setHeader(name, value);
	}

	@Override
	public void addHeader(String name, @Nullable String value) {
		capture(name, value);
		super.addHeader(name, value);
	}

	private void capture(String name, @Nullable String value) {
		if (McpHeaders.SESSION_ID.equalsIgnoreCase(name) && value != null && !value.isEmpty()) {
			this.onSessionId.accept(value);
		}
	}

}
