package io.github.mcpgateway.transport;

/**
 * The upstream exchange of a request, as far as another thread may touch it: it can be
 * aborted. The proxy records one on the request's context when it sends the request
 * upstream; the Idempotency-Key stage aborts it when the client cancels a keyed call
 * ({@code notifications/cancelled}).
 */
@FunctionalInterface
public interface UpstreamCall {

	/** Ends the exchange: the connection is dropped, a read in progress fails. */
	void abort();

}
