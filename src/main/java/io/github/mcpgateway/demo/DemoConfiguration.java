package io.github.mcpgateway.demo;

import java.time.Clock;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

import io.github.mcpgateway.identity.IdentityProperties;

/**
 * The {@code demo} profile: an SDK-built MCP server on {@code gateway.demo.upstream-port}
 * and the loopback-only token issuer whose keys the gateway trusts in this profile only.
 */
@Configuration(proxyBeanMethods = false)
@Profile("demo")
class DemoConfiguration {

	@Bean(destroyMethod = "close")
	DemoMcpServer demoMcpServer(@Value("${gateway.demo.upstream-port:8091}") int port) {
		return DemoMcpServer.start(port, DemoMcpServer.Mode.STREAMABLE);
	}

	@Bean
	DemoTokenIssuer demoTokenIssuer(IdentityProperties identity, Clock clock) {
		return new DemoTokenIssuer(identity.oauth().issuer(), identity.oauth().audiences().get(0), clock);
	}

}
