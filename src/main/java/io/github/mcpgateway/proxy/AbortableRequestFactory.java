package io.github.mcpgateway.proxy;

import org.apache.hc.client5.http.classic.HttpClient;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.http.ClassicHttpRequest;

import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;

import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.transport.UpstreamCall;

/**
 * Spring's request factory for Apache HttpClient, which also records each upstream
 * request on the context of the servlet request it proxies ({@link UpstreamCall}), so
 * that another thread can abort it: Apache HttpClient's classic requests are
 * {@link Cancellable}, and cancelling one drops its connection, which fails a blocked
 * read at once.
 *
 * <p>
 * Spring's client adapter gives the factory no servlet request: it is the
 * {@link ProxiedRequest}.
 */
final class AbortableRequestFactory extends HttpComponentsClientHttpRequestFactory {

	AbortableRequestFactory(HttpClient httpClient) {
		super(httpClient);
	}

	@Override
	protected void postProcessHttpRequest(ClassicHttpRequest request) {
		McpRequestContext context = ProxiedRequest.context();
		if (request instanceof Cancellable cancellable && context != null) {
			context.upstream().call(cancellable::cancel);
		}
	}

}
