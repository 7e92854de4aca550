package io.github.mcpgateway.admission;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.routing.ServerLocator;

/**
 * The per-caller caps. The pipeline's configuration registers the two filters at their
 * places around Spring Security.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AdmissionProperties.class)
class AdmissionConfiguration {

	@Bean
	ClientAddressLimitFilter clientAddressLimitFilter(AdmissionProperties properties, GatewayErrorRenderer renderer,
			MeterRegistry meterRegistry) {
		return new ClientAddressLimitFilter(
				new InFlightLimiter("address", properties.maxRequestsPerAddress(), meterRegistry), renderer);
	}

	@Bean
	PrincipalLimitFilter principalLimitFilter(AdmissionProperties properties, ServerLocator servers,
			GatewayErrorRenderer renderer, MeterRegistry meterRegistry) {
		return new PrincipalLimitFilter(servers, PrincipalCaps.of(properties, meterRegistry), renderer);
	}

}
