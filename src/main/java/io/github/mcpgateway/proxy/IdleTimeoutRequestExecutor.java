package io.github.mcpgateway.proxy;

import java.io.IOException;

import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.impl.io.HttpRequestExecutor;
import org.apache.hc.core5.http.io.HttpClientConnection;
import org.apache.hc.core5.http.io.HttpResponseInformationCallback;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.util.Timeout;

/**
 * Switches the socket timeout from the first-byte timeout to the idle timeout once the
 * response headers have arrived.
 *
 * <p>
 * Apache HttpClient applies one per-read socket timeout to a whole exchange (its response
 * timeout). The gateway needs two: how long an upstream may think before answering, and
 * how long a body (an event stream above all) may stay silent between reads. No client
 * setting offers the second, so this executor sets it on the connection right after the
 * head of the response is read.
 */
final class IdleTimeoutRequestExecutor extends HttpRequestExecutor {

	private final Timeout idleTimeout;

	IdleTimeoutRequestExecutor(Timeout idleTimeout) {
		this.idleTimeout = idleTimeout;
	}

	@Override
	public ClassicHttpResponse execute(ClassicHttpRequest request, HttpClientConnection connection,
			HttpResponseInformationCallback informationCallback, HttpContext context)
			throws IOException, HttpException {
		ClassicHttpResponse response = super.execute(request, connection, informationCallback, context);
		connection.setSocketTimeout(this.idleTimeout);
		return response;
	}

}
