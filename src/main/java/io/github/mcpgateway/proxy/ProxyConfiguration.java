package io.github.mcpgateway.proxy;

import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.gateway.server.mvc.config.GatewayMvcProperties;
import org.springframework.cloud.gateway.server.mvc.filter.HttpHeadersFilter.RequestHttpHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.HttpHeadersFilter.ResponseHttpHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.handler.ClientHttpRequestFactoryProxyExchange;
import org.springframework.cloud.gateway.server.mvc.handler.ProxyExchange;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.identity.IdentityProperties;
import io.github.mcpgateway.request.Decision;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.PipelineObserver;
import io.github.mcpgateway.request.RequestProperties;
import io.github.mcpgateway.request.UpstreamHeaderRule;
import io.github.mcpgateway.stdio.StdioSessions;
import io.github.mcpgateway.stdio.StdioTransport;
import io.github.mcpgateway.transport.StreamingMediaTypes;

/**
 * Wires the proxy: one Spring Cloud Gateway Server MVC route that serves every server of
 * the live policy, the upstream HTTP client and the header filters of the proxied
 * request. Its properties also configure the upstream guard that runs before it
 * ({@link ProxyProperties} is the guard's {@code UpstreamGuardSettings}).
 *
 * <p>
 * The route is not a fixed list: it matches any request that the gateway filters resolved
 * and allowed, and sends it to the upstream URL of the server the request context
 * carries. A server added to or removed from the policy is therefore routed (or not) from
 * the next request on, without a restart.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ProxyProperties.class)
class ProxyConfiguration {

	@Bean(destroyMethod = "close")
	CloseableHttpClient upstreamHttpClient(ProxyProperties properties) {
		return UpstreamHttpClientFactory.create(properties);
	}

	/**
	 * The transport of stdio servers: a reply is held to the proxy's first-byte timeout,
	 * a request body to the gateway's request cap.
	 */
	@Bean
	StdioTransport stdioTransport(StdioSessions stdioSessions, ProxyProperties properties,
			RequestProperties requestProperties, GatewayErrorRenderer errors) {
		return new StdioTransport(stdioSessions, properties.firstByteTimeout(),
				requestProperties.maxBodySize().toBytes(), errors);
	}

	/**
	 * The proxy's exchange over Apache HttpClient, or the stdio transport for a stdio
	 * server; with a pipeline observer (tracing on), the observer follows each upstream
	 * call ({@link ObservedRequestFactory}).
	 */
	@Bean
	ProxyExchange upstreamProxyExchange(CloseableHttpClient upstreamHttpClient, StdioTransport stdioTransport,
			GatewayMvcProperties properties, ObjectProvider<PipelineObserver> observer) {
		ClientHttpRequestFactory requests = new StdioRequestFactory(new AbortableRequestFactory(upstreamHttpClient),
				stdioTransport);
		PipelineObserver pipelineObserver = observer.getIfAvailable();
		if (pipelineObserver != null) {
			requests = new ObservedRequestFactory(requests, pipelineObserver);
		}
		return new ClientHttpRequestFactoryProxyExchange(requests, properties);
	}

	@Bean
	CredentialHeaders credentialHeaders(IdentityProperties identity) {
		return new CredentialHeaders(identity.delegatedHeader().forwardHeaders());
	}

	@Bean
	StreamingMediaTypes streamingMediaTypes(GatewayMvcProperties properties) {
		return new StreamingMediaTypes(properties.getStreamingMediaTypes());
	}

	@Bean
	UpstreamHandler upstreamHandler(ProxyExchange upstreamProxyExchange, StreamingMediaTypes streamingMediaTypes,
			ObjectProvider<RequestHttpHeadersFilter> requestFilters,
			ObjectProvider<ResponseHttpHeadersFilter> responseFilters, ObjectProvider<UpstreamHeaderRule> headerRules,
			CredentialHeaders credentialHeaders) {
		return new UpstreamHandler(upstreamProxyExchange, streamingMediaTypes, requestFilters, responseFilters,
				headerRules, credentialHeaders);
	}

	@Bean
	UpstreamDispatch upstreamDispatch(UpstreamHandler upstreamHandler) {
		return new UpstreamDispatch(upstreamHandler);
	}

	@Bean
	RouterFunction<ServerResponse> mcpProxyRoute(UpstreamHandler upstreamHandler) {
		return RouterFunctions.route().route(ProxyConfiguration::isAllowedMcpRequest, upstreamHandler).build();
	}

	private static boolean isAllowedMcpRequest(ServerRequest request) {
		McpRequestContext context = McpRequestContext.find(request.servletRequest());
		return context != null && context.decision() == Decision.ALLOWED;
	}

}
