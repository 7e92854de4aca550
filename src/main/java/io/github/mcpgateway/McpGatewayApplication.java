package io.github.mcpgateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Starts the gateway. Configuration reference: {@code docs/configuration.md}. */
@SpringBootApplication
public class McpGatewayApplication {

	public static void main(String[] args) {
		SpringApplication.run(McpGatewayApplication.class, args);
	}

}
