package io.github.mcpgateway.proxy;

import org.apache.hc.client5.http.classic.HttpClient;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.http.ClassicHttpRequest;

import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

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
 * Spring's client adapter gives the factory no servlet request: it is found in
 * {@link RequestContextHolder}, which Spring Boot's {@code RequestContextFilter} fills
 * for every request (order {@code -105}, ahead of the whole pipeline; see
 * docs/architecture.md).
 */
final class AbortableRequestFactory extends HttpComponentsClientHttpRequestFactory {

	AbortableRequestFactory(HttpClient httpClient) {
		super(httpClient);
	}

	@Override
	protected void postProcessHttpRequest(ClassicHttpRequest request) {
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		if (request instanceof Cancellable cancellable && attributes instanceof ServletRequestAttributes servlet) {
			McpRequestContext context = McpRequestContext.find(servlet.getRequest());
			if (context != null) {
				context.upstreamCall(cancellable::cancel);
			}
		}
	}

}
