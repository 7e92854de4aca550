package io.github.mcpgateway.bench.bare;

import java.net.URI;

import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

import org.springframework.cloud.gateway.server.mvc.config.GatewayMvcProperties;
import org.springframework.cloud.gateway.server.mvc.handler.ClientHttpRequestFactoryProxyExchange;
import org.springframework.cloud.gateway.server.mvc.handler.ProxyExchange;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.servlet.function.RequestPredicate;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

import static org.springframework.cloud.gateway.server.mvc.filter.BeforeFilterFunctions.uri;
import static org.springframework.cloud.gateway.server.mvc.handler.GatewayRouterFunctions.route;
import static org.springframework.cloud.gateway.server.mvc.handler.HandlerFunctions.http;

/**
 * The route, as Spring Cloud Gateway Server MVC's documentation writes one
 * ({@code route(id).route(predicate, http()).before(uri(...))}, served by its own
 * {@code ProxyExchangeHandlerFunction} and header filters), and the exchange it proxies
 * through: Spring Cloud Gateway's {@link ClientHttpRequestFactoryProxyExchange} over
 * Spring's request factory for Apache HttpClient, as the gateway's proxy uses, without
 * the gateway's own wrapping of that factory (cancellation, tracing).
 */
@Configuration(proxyBeanMethods = false)
class BareRouteConfiguration {

	@Bean(destroyMethod = "close")
	CloseableHttpClient upstreamHttpClient(UpstreamClientProperties properties) {
		return UpstreamHttpClient.create(properties);
	}

	@Bean
	ProxyExchange upstreamProxyExchange(CloseableHttpClient upstreamHttpClient, GatewayMvcProperties properties) {
		return new ClientHttpRequestFactoryProxyExchange(new HttpComponentsClientHttpRequestFactory(upstreamHttpClient),
				properties);
	}

	/**
	 * {@code /fixed} to the fixed upstream when there is one, everything else to the
	 * upstream.
	 */
	@Bean
	RouterFunction<ServerResponse> bareRoute(BareRouteProperties properties) {
		RouterFunction<ServerResponse> all = proxy("bare", RequestPredicates.all(), properties.upstream());
		URI fixed = properties.fixedUpstream();
		return (fixed != null) ? proxy("bare-fixed", RequestPredicates.path("/fixed"), fixed).and(all) : all;
	}

	private static RouterFunction<ServerResponse> proxy(String id, RequestPredicate predicate, URI upstream) {
		return route(id).route(predicate, http()).before(uri(upstream)).build();
	}

}
