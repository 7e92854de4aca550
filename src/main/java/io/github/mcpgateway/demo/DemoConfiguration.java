package io.github.mcpgateway.demo;

import java.time.Clock;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

import io.github.mcpgateway.identity.IdentityProperties;

/**
 * The {@code demo} profile: two SDK-built MCP servers, on
 * {@code gateway.demo.upstream-port} (sessions, event-stream replies) and
 * {@code gateway.demo.json-upstream-port} (stateless, JSON replies), and the
 * loopback-only token issuer whose keys the gateway trusts in this profile only.
 */
@Configuration(proxyBeanMethods = false)
@Profile("demo")
class DemoConfiguration {

	/** Sessions, event-stream replies: {@code /mcp/demo/notes}. */
	@Bean(destroyMethod = "close")
	DemoMcpServer demoMcpServer(@Value("${gateway.demo.upstream-port:8091}") int port) {
		return DemoMcpServer.start(port, DemoMcpServer.Mode.STREAMABLE);
	}

	/**
	 * Stateless, JSON replies (replayable under an Idempotency-Key):
	 * {@code /mcp/demo/notes-json}.
	 */
	@Bean(destroyMethod = "close")
	DemoMcpServer demoJsonMcpServer(@Value("${gateway.demo.json-upstream-port:8092}") int port) {
		return DemoMcpServer.start(port, DemoMcpServer.Mode.STATELESS);
	}

	@Bean
	DemoTokenIssuer demoTokenIssuer(IdentityProperties identity, Clock clock) {
		return new DemoTokenIssuer(identity.oauth().issuer(), identity.oauth().audiences().get(0), clock);
	}

}
