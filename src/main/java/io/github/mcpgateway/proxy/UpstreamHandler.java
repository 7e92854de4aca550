package io.github.mcpgateway.proxy;

import java.io.InputStream;
import java.net.URI;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.cloud.gateway.server.mvc.common.MvcUtils;
import org.springframework.cloud.gateway.server.mvc.filter.HttpHeadersFilter.RequestHttpHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.HttpHeadersFilter.ResponseHttpHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.handler.ProxyExchange;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import org.springframework.web.util.UriComponentsBuilder;

import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.UpstreamHeaderRule;
import io.github.mcpgateway.transport.StreamingMediaTypes;

/**
 * The proxy route's handler: sends an allowed request to the upstream URL of the server
 * in its {@link McpRequestContext} (scheme, host, port and path from the policy, the
 * incoming raw query kept) and relays the reply through a {@link ProxyExchange}.
 *
 * <p>
 * Request and response headers are what every {@link RequestHttpHeadersFilter} and
 * {@link ResponseHttpHeadersFilter} bean (Spring Cloud Gateway's hop-by-hop and
 * forwarding filters) and every {@link UpstreamHeaderRule} (the gateway's) would leave,
 * made in one pass ({@link UpstreamHeaders}), and {@code Host} is the upstream's. Spring
 * Cloud Gateway's own handler takes the path from the incoming request, so a route to
 * another path would have to rebuild the request, copying every header, attribute and
 * parameter on each call; this one builds the target URL directly. A streaming reply is
 * committed as soon as the upstream's headers are in ({@link HeadersFirstResponse}), and
 * a body closed before its end drops its connection ({@link AbortUnfinishedBodyStream}).
 */
final class UpstreamHandler implements HandlerFunction<ServerResponse>, SmartInitializingSingleton {

	private final ProxyExchange proxyExchange;

	private final StreamingMediaTypes streamingMediaTypes;

	private final ObjectProvider<RequestHttpHeadersFilter> requestFilters;

	private final ObjectProvider<ResponseHttpHeadersFilter> responseFilters;

	private final ObjectProvider<UpstreamHeaderRule> headerRules;

	private final CredentialHeaders credentials;

	private UpstreamHeaders headers;

	UpstreamHandler(ProxyExchange proxyExchange, StreamingMediaTypes streamingMediaTypes,
			ObjectProvider<RequestHttpHeadersFilter> requestFilters,
			ObjectProvider<ResponseHttpHeadersFilter> responseFilters, ObjectProvider<UpstreamHeaderRule> headerRules,
			CredentialHeaders credentials) {
		this.proxyExchange = proxyExchange;
		this.streamingMediaTypes = streamingMediaTypes;
		this.requestFilters = requestFilters;
		this.responseFilters = responseFilters;
		this.headerRules = headerRules;
		this.credentials = credentials;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.headers = new UpstreamHeaders(this.requestFilters.orderedStream().toList(),
				this.responseFilters.orderedStream().toList(), this.headerRules.orderedStream().toList(),
				this.credentials);
	}

	@Override
	public ServerResponse handle(ServerRequest request) {
		McpRequestContext context = McpRequestContext.require(request.servletRequest());
		ProxyExchange.Request upstreamRequest = this.proxyExchange.request(request)
			.uri(target(context, request))
			.headers(this.headers.request(request, context))
			.responseConsumer((response, relayed) -> relayed.headers()
				.putAll(this.headers.response(response.getHeaders(), relayed)))
			.build();
		ServerResponse proxied = this.proxyExchange.exchange(upstreamRequest);
		InputStream body = MvcUtils.getAttribute(request, MvcUtils.CLIENT_RESPONSE_INPUT_STREAM_ATTR);
		if (body != null) {
			// The proxy writes the reply from this attribute.
			MvcUtils.putAttribute(request, MvcUtils.CLIENT_RESPONSE_INPUT_STREAM_ATTR,
					new AbortUnfinishedBodyStream(body));
		}
		return this.streamingMediaTypes.isStreaming(proxied.headers().getFirst(HttpHeaders.CONTENT_TYPE))
				? new HeadersFirstResponse(proxied) : proxied;
	}

	static URI target(McpRequestContext context, ServerRequest request) {
		URI upstream = context.server().upstream();
		if (context.server().runsStdio()) {
			// Names the server; the stdio transport takes no query.
			return upstream;
		}
		return UriComponentsBuilder.fromUri(upstream)
			.replaceQuery(request.servletRequest().getQueryString())
			.build(true)
			.toUri();
	}

}
