package io.github.mcpgateway.bench.bare;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * The floor of {@code bench/run.sh}: a bare Spring Cloud Gateway Server MVC route on the
 * gateway's stack (the same Spring Boot, Spring Cloud, Tomcat and Apache HttpClient
 * versions, the same stack settings, the same upstream client) with nothing of the
 * gateway: no security, no policy, nothing of MCP, no Actuator. A gateway row divided by
 * its bare row is the share of the stack's throughput the gateway keeps with everything
 * it does. Run with
 * {@code java -jar bare-route-*.jar --server.port=<port> --bare.upstream=<url> [--bare.fixed-upstream=<url>] --bare.gateway-config=<the gateway's application.yaml>}.
 */
@SpringBootApplication(proxyBeanMethods = false)
@EnableConfigurationProperties({ BareRouteProperties.class, UpstreamClientProperties.class })
public class BareRouteApplication {

	public static void main(String[] args) {
		SpringApplication.run(BareRouteApplication.class, args);
	}

}
