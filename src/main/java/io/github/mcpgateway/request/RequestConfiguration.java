package io.github.mcpgateway.request;

import java.time.Clock;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.jsonrpc.JsonRpcMessageParser;
import io.github.mcpgateway.policy.LivePolicy;
import tools.jackson.databind.json.JsonMapper;

/**
 * Wires the request stage: body limits, the JSON-RPC parser and the
 * {@link McpRequestFilter}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RequestProperties.class)
class RequestConfiguration {

	@Bean
	McpRequestFilter mcpRequestFilter(LivePolicy livePolicy, RequestProperties properties, JsonMapper jsonMapper,
			GatewayErrorRenderer errorRenderer, ApplicationEventPublisher events, Clock clock) {
		return new McpRequestFilter(livePolicy, properties, new JsonRpcMessageParser(jsonMapper), errorRenderer, events,
				clock);
	}

}
