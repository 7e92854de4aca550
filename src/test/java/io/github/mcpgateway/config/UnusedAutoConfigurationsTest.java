package io.github.mcpgateway.config;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.cloud.context.scope.refresh.RefreshScope;
import org.springframework.context.ApplicationContext;

import io.github.mcpgateway.support.GatewayIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the gateway never uses is never imported: none of the auto-configurations
 * {@link UnusedAutoConfigurations} names is in the context (Boot registers an imported
 * auto-configuration under its class name), nor Spring Cloud's refresh scope, and the
 * gateway still serves.
 */
class UnusedAutoConfigurationsTest extends GatewayIntegrationTest {

	/** An auto-configuration that every gateway context imports. */
	private static final String GATEWAY_AUTO_CONFIGURATION = "org.springframework.cloud.gateway.server.mvc.GatewayServerMvcAutoConfiguration";

	@Autowired
	ApplicationContext context;

	@Test
	void noUnusedAutoConfigurationIsInTheContext() {
		assertThat(post("/mcp/test/echo", validToken(), toolCall(1, "echo")).statusCode()).isEqualTo(200);

		assertThat(UnusedAutoConfigurations.UNUSED).isNotEmpty()
			.allSatisfy((name) -> assertThat(this.context.containsBeanDefinition(name)).as(name).isFalse());
		assertThat(this.context.getBeanNamesForType(RefreshScope.class)).isEmpty();
		assertThat(this.context.containsBeanDefinition(GATEWAY_AUTO_CONFIGURATION))
			.as("an auto-configuration the gateway uses is imported under its class name")
			.isTrue();
	}

}
