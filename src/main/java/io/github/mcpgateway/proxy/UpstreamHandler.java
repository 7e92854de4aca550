package io.github.mcpgateway.proxy;

import java.io.InputStream;
import java.net.URI;
import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.cloud.gateway.server.mvc.common.MvcUtils;
import org.springframework.cloud.gateway.server.mvc.filter.HttpHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.HttpHeadersFilter.RequestHttpHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.HttpHeadersFilter.ResponseHttpHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.handler.ProxyExchange;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import org.springframework.web.util.UriComponentsBuilder;

import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.transport.StreamingMediaTypes;

/**
 * The proxy route's handler: sends an allowed request to the upstream URL of the server
 * in its {@link McpRequestContext} (scheme, host, port and path from the policy, the
 * incoming raw query kept) and relays the reply through a {@link ProxyExchange}.
 *
 * <p>
 * Request and response headers pass every {@link RequestHttpHeadersFilter} and
 * {@link ResponseHttpHeadersFilter} bean in order (Spring Cloud Gateway's hop-by-hop and
 * forwarding filters, and the gateway's own), and {@code Host} is the upstream's. Spring
 * Cloud Gateway's own handler takes the path from the incoming request, so a route to
 * another path would have to rebuild the request, copying every header, attribute and
 * parameter on each call; this one builds the target URL directly. A streaming reply is
 * committed as soon as the upstream's headers are in ({@link HeadersFirstResponse}), and
 * a body closed before its end drops its connection ({@link AbortUnfinishedBodyStream}).
 */
final class UpstreamHandler implements HandlerFunction<ServerResponse>, SmartInitializingSingleton {

	private final ProxyExchange proxyExchange;

	private final StreamingMediaTypes streamingMediaTypes;

	private final ObjectProvider<RequestHttpHeadersFilter> requestFiltersProvider;

	private final ObjectProvider<ResponseHttpHeadersFilter> responseFiltersProvider;

	private List<RequestHttpHeadersFilter> requestFilters = List.of();

	private List<ResponseHttpHeadersFilter> responseFilters = List.of();

	UpstreamHandler(ProxyExchange proxyExchange, StreamingMediaTypes streamingMediaTypes,
			ObjectProvider<RequestHttpHeadersFilter> requestFilters,
			ObjectProvider<ResponseHttpHeadersFilter> responseFilters) {
		this.proxyExchange = proxyExchange;
		this.streamingMediaTypes = streamingMediaTypes;
		this.requestFiltersProvider = requestFilters;
		this.responseFiltersProvider = responseFilters;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.requestFilters = this.requestFiltersProvider.orderedStream().toList();
		this.responseFilters = this.responseFiltersProvider.orderedStream().toList();
	}

	@Override
	public ServerResponse handle(ServerRequest request) {
		HttpHeaders headers = filter(this.requestFilters, request.headers().asHttpHeaders(), request);
		headers.remove(HttpHeaders.HOST);
		ProxyExchange.Request upstreamRequest = this.proxyExchange.request(request)
			.uri(target(request))
			.headers(headers)
			.responseConsumer((response, relayed) -> relayed.headers()
				.putAll(filter(this.responseFilters, response.getHeaders(), relayed)))
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

	static URI target(ServerRequest request) {
		URI upstream = McpRequestContext.require(request.servletRequest()).server().upstream();
		return UriComponentsBuilder.fromUri(upstream)
			.replaceQuery(request.servletRequest().getQueryString())
			.build(true)
			.toUri();
	}

	private static <T> HttpHeaders filter(List<? extends HttpHeadersFilter<T>> filters, HttpHeaders headers,
			T requestOrResponse) {
		HttpHeaders filtered = headers;
		for (HttpHeadersFilter<T> filter : filters) {
			filtered = filter.apply(filtered, requestOrResponse);
		}
		return filtered;
	}

}
