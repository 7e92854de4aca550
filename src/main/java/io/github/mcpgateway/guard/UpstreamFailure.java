package io.github.mcpgateway.guard;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;

import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrors;

/**
 * What went wrong with an upstream call, classified from the exception the proxy
 * surfaced.
 *
 * <p>
 * The proxy does not translate client failures: a refused connection, a read timeout and
 * a reset in the middle of a body arrive wrapped (in a {@code ServletException}, a
 * {@code ResourceAccessException} or an {@code UncheckedIOException}). The cause chain
 * decides.
 */
enum UpstreamFailure {

	/** No pooled connection was free in time: the request never left the gateway. */
	POOL_EXHAUSTED(GatewayErrors.BULKHEAD_FULL, false),
	/** No connection could be made: the request never left the gateway. */
	UNREACHABLE(GatewayErrors.UPSTREAM_UNAVAILABLE, false),
	/** The upstream did not answer, or went silent, within its timeout. */
	TIMEOUT(GatewayErrors.UPSTREAM_TIMEOUT, true),
	/** The connection broke after the request was sent. */
	BROKEN(GatewayErrors.UPSTREAM_FAILED, true);

	private final GatewayError error;

	private final boolean dispatched;

	UpstreamFailure(GatewayError error, boolean dispatched) {
		this.error = error;
		this.dispatched = dispatched;
	}

	GatewayError error() {
		return this.error;
	}

	/** Whether the upstream may have received (and acted on) the request. */
	boolean dispatched() {
		return this.dispatched;
	}

	static UpstreamFailure classify(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = next(cause)) {
			if (cause instanceof ConnectionRequestTimeoutException) {
				return POOL_EXHAUSTED;
			}
			if (cause instanceof ConnectException || cause instanceof ConnectTimeoutException
					|| cause instanceof UnknownHostException || cause instanceof NoRouteToHostException) {
				return UNREACHABLE;
			}
			if (cause instanceof SocketTimeoutException) {
				return TIMEOUT;
			}
		}
		return BROKEN;
	}

	private static Throwable next(Throwable cause) {
		Throwable next = cause.getCause();
		return (next != cause) ? next : null;
	}

}
