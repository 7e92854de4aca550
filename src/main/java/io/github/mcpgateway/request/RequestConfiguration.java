package io.github.mcpgateway.request;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.jsonrpc.JsonRpcMessageParser;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import io.github.mcpgateway.routing.ServerLocator;

/**
 * Wires the request stage: body limits, the JSON-RPC parser and the
 * {@link McpRequestFilter}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RequestProperties.class)
class RequestConfiguration {

	@Bean
	Refusals refusals(GatewayErrorRenderer errorRenderer) {
		return new Refusals(errorRenderer);
	}

	@Bean
	McpRequestFilter mcpRequestFilter(ServerLocator servers, RequestProperties properties, Refusals refusals,
			ObjectProvider<RequestRefusalCustomizer> refusalCustomizers,
			ObjectProvider<McpAuditListener> auditListeners, Clock clock) {
		StrictJsonReader reader = new StrictJsonReader(properties.json(), properties.maxBodySize().toBytes());
		return new McpRequestFilter(servers, properties, new JsonRpcMessageParser(reader), refusals,
				refusalCustomizers.orderedStream().toList(), auditListeners.orderedStream().toList(), clock);
	}

}
