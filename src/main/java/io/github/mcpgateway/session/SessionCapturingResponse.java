package io.github.mcpgateway.session;

import java.util.function.Consumer;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.transport.McpHeaders;

/**
 * Sees the {@code Mcp-Session-Id} an upstream returns on {@code initialize} the moment
 * the proxy sets it, before any byte of the reply reaches the client, so the binding
 * exists before the client can use the id.
 */
final class SessionCapturingResponse extends HttpServletResponseWrapper {

	private final Consumer<String> onSessionId;

	SessionCapturingResponse(HttpServletResponse response, Consumer<String> onSessionId) {
		super(response);
		this.onSessionId = onSessionId;
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
