package io.github.mcpgateway.proxy;

import org.apache.hc.client5.http.classic.HttpClient;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.http.ClassicHttpRequest;

import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import io.github.mcpgateway.transport.UpstreamCall;

/**
 * Spring's request factory for Apache HttpClient, which also attaches each upstream
 * request to the servlet request it proxies ({@link UpstreamCall}), so that another
 * thread can abort it: Apache HttpClient's classic requests are {@link Cancellable}, and
 * cancelling one drops its connection, which fails a blocked read at once.
 */
final class AbortableRequestFactory extends HttpComponentsClientHttpRequestFactory {

	AbortableRequestFactory(HttpClient httpClient) {
		super(httpClient);
	}

	@Override
	protected void postProcessHttpRequest(ClassicHttpRequest request) {
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		if (request instanceof Cancellable cancellable && attributes instanceof ServletRequestAttributes servlet) {
			UpstreamCall.attach(servlet.getRequest(), cancellable::cancel);
		}
	}

}
