package io.github.mcpgateway.proxy;

import java.util.concurrent.TimeUnit;

import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.util.Timeout;

/**
 * Builds the Apache HttpClient that carries every upstream call.
 *
 * <p>
 * Chosen over the JDK client because the JDK's read timeout is a deadline for the whole
 * exchange and cuts long event streams. Settings that the contract depends on: automatic
 * retries off (the gateway never retries a call it sent), redirects off, transparent
 * decompression off (the reply passes through as the upstream encoded it), and per-read
 * timeouts as described in {@link IdleTimeoutRequestExecutor}.
 *
 * <p>
 * {@code bench/bare-route} (the bare route {@code bench/run.sh} measures the gateway
 * against) builds its client with a copy of these settings: a change here is made there
 * too.
 */
final class UpstreamHttpClientFactory {

	private UpstreamHttpClientFactory() {
	}

	static CloseableHttpClient create(ProxyProperties properties) {
		Timeout firstByte = timeout(properties.firstByteTimeout().toMillis());
		PoolingHttpClientConnectionManager connections = PoolingHttpClientConnectionManagerBuilder.create()
			.setMaxConnTotal(properties.maxConnections())
			.setMaxConnPerRoute(properties.maxConnectionsPerUpstream())
			// Requests go out in a few small writes (head, body): never wait on Nagle for
			// an ACK.
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

}
