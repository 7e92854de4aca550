package io.github.mcpgateway.transport;

import java.io.IOException;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayError;

/**
 * Thrown by an upstream client that refuses a request before anything of it reached the
 * upstream, for a reason of the gateway's own (for example a cap on the child processes
 * of a stdio server): the upstream guard answers {@link #error()}, releases the call's
 * permit without counting it against the circuit, and marks the request not dispatched.
 * An {@link IOException}, so that it passes the proxy's client as its other failures do.
 */
public class DispatchRefusedException extends IOException {

	private final GatewayError error;

	public DispatchRefusedException(GatewayError error) {
		super(error.code(), null);
		Assert.notNull(error, "error must not be null");
		this.error = error;
	}

	/** The gateway's answer to the client. */
	public GatewayError error() {
		return this.error;
	}

	/** The refusal in {@code failure}'s cause chain, or {@code null}. */
	public static @Nullable DispatchRefusedException in(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof DispatchRefusedException refused) {
				return refused;
			}
		}
		return null;
	}

}
