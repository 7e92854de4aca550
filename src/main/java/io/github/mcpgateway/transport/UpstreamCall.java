package io.github.mcpgateway.transport;

import jakarta.servlet.ServletRequest;
import org.jspecify.annotations.Nullable;

/**
 * The upstream exchange of a request, as far as another thread may touch it: it can be
 * aborted. The proxy attaches one to the request when it sends the request upstream; the
 * Idempotency-Key stage aborts it when the client cancels a keyed call
 * ({@code notifications/cancelled}).
 */
@FunctionalInterface
public interface UpstreamCall {

	/** Ends the exchange: the connection is dropped, a read in progress fails. */
	void abort();

	static void attach(ServletRequest request, UpstreamCall call) {
		request.setAttribute(UpstreamCall.class.getName(), call);
	}

	/** The exchange of {@code request}, or {@code null} before it was sent upstream. */
	static @Nullable UpstreamCall find(ServletRequest request) {
		return (UpstreamCall) request.getAttribute(UpstreamCall.class.getName());
	}

}
