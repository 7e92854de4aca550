package io.github.mcpgateway.config;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.idempotency.IdempotencyProperties;
import io.github.mcpgateway.proxy.ProxyProperties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A misspelt gateway property stops the start instead of being ignored: a governance
 * gateway must not run with a setting the operator believes is on.
 */
class UnknownPropertyTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withUserConfiguration(Properties.class);

	@Test
	void unknownPropertyUnderAGatewayPrefixFailsTheStart() {
		this.runner.withPropertyValues("gateway.idempotency.event-stream=replay").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("event-stream");
		});
		this.runner.withPropertyValues("gateway.proxy.idle-timout=10s")
			.run((context) -> assertThat(context).hasFailed());
	}

	@Test
	void knownPropertiesBind() {
		this.runner.withPropertyValues("gateway.idempotency.event-streams=replay", "gateway.proxy.idle-timeout=10s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(IdempotencyProperties.class).eventStreams())
					.isEqualTo(IdempotencyProperties.EventStreams.REPLAY);
			});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties({ IdempotencyProperties.class, ProxyProperties.class })
	static class Properties {

	}

}
