package io.github.mcpgateway.request;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.jsonrpc.JsonRpcMessageParser;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;

/**
 * Wires the request stage: body limits, the JSON-RPC parser and the refusals every
 * stage's refusal goes through. The pipeline filter itself is registered by the
 * pipeline's configuration, with the stages in order.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RequestProperties.class)
class RequestConfiguration {

	@Bean
	Refusals refusals(GatewayErrorRenderer errorRenderer) {
		return new Refusals(errorRenderer);
	}

	@Bean
	JsonRpcMessageParser jsonRpcMessageParser(RequestProperties properties) {
		return new JsonRpcMessageParser(new StrictJsonReader(properties.json(), properties.maxBodySize().toBytes()));
	}

}
