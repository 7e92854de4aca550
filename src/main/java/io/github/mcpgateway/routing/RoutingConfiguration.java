package io.github.mcpgateway.routing;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.policy.LivePolicy;

/**
 * Wires server resolution; its place in the pipeline is set by the pipeline
 * configuration.
 */
@Configuration(proxyBeanMethods = false)
class RoutingConfiguration {

	@Bean
	ServerLocator serverLocator(LivePolicy livePolicy) {
		return new ServerLocator(livePolicy);
	}

	@Bean
	ServerResolutionFilter serverResolutionFilter(ServerLocator servers) {
		return new ServerResolutionFilter(servers);
	}

}
