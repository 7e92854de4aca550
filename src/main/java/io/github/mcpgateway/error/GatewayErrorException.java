package io.github.mcpgateway.error;

import org.springframework.util.Assert;

/**
 * Thrown by strategies (parsers, resolvers, evaluators) to refuse a request; the filter
 * that called them catches it and hands {@link #error()} to the
 * {@link GatewayErrorRenderer}. Carries no stack trace: it is control flow, not a fault.
 */
public class GatewayErrorException extends RuntimeException {

	private final GatewayError error;

	public GatewayErrorException(GatewayError error) {
		super(error.code(), null, false, false);
		Assert.notNull(error, "error must not be null");
		this.error = error;
	}

	public GatewayError error() {
		return this.error;
	}

}
