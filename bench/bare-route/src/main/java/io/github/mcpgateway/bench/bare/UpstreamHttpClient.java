package io.github.mcpgateway.bench.bare;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.impl.io.HttpRequestExecutor;
import org.apache.hc.core5.http.io.HttpClientConnection;
import org.apache.hc.core5.http.io.HttpResponseInformationCallback;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.util.Timeout;

/**
 * The Apache HttpClient the gateway builds for its upstreams, setting for setting: a copy
 * of the gateway's {@code proxy.UpstreamHttpClientFactory} and its
 * {@code IdleTimeoutRequestExecutor} (package-private in the gateway's jar, which this
 * module does not depend on). Keep the two equal: a setting changed there is changed
 * here, or the bare row stops being the gateway's floor.
 */
final class UpstreamHttpClient {

	private UpstreamHttpClient() {
	}

	static CloseableHttpClient create(UpstreamClientProperties properties) {
		Timeout firstByte = timeout(properties.firstByteTimeout().toMillis());
		PoolingHttpClientConnectionManager connections = PoolingHttpClientConnectionManagerBuilder.create()
			.setMaxConnTotal(properties.maxConnections())
			.setMaxConnPerRoute(properties.maxConnectionsPerUpstream())
			.setDefaultSocketConfig(SocketConfig.custom().setTcpNoDelay(true).build())
			.setDefaultConnectionConfig(ConnectionConfig.custom()
				.setConnectTimeout(timeout(properties.connectTimeout().toMillis()))
				.setSocketTimeout(firstByte)
				.build())
			.build();
		return HttpClients.custom()
			.setConnectionManager(connections)
			.setDefaultRequestConfig(RequestConfig.custom()
				.setResponseTimeout(firstByte)
				.setConnectionRequestTimeout(timeout(properties.connectTimeout().toMillis()))
				.build())
			.setRequestExecutor(new IdleTimeoutRequestExecutor(timeout(properties.idleTimeout().toMillis())))
			.disableAutomaticRetries()
			.disableRedirectHandling()
			.disableContentCompression()
			.disableCookieManagement()
			.evictIdleConnections(Timeout.of(30, TimeUnit.SECONDS))
			.build();
	}

	private static Timeout timeout(long millis) {
		return Timeout.ofMilliseconds(Math.max(1, millis));
	}

	/** The idle timeout on the connection once the response headers are in. */
	private static final class IdleTimeoutRequestExecutor extends HttpRequestExecutor {

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

}
