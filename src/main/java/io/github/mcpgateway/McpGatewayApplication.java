package io.github.mcpgateway;

import java.util.Arrays;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

import io.github.mcpgateway.validate.ValidateCommand;

/**
 * Starts the gateway, or with {@code validate} as the first argument checks policy,
 * revocation and configuration files without starting it. Configuration reference:
 * {@code docs/configuration.md}; the command: {@code docs/operations.md}.
 */
@SpringBootApplication
public class McpGatewayApplication {

	public static void main(String[] args) {
		if (args.length > 0 && ValidateCommand.NAME.equals(args[0])) {
			System.exit(ValidateCommand.run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
		}
		try {
			SpringApplication.run(McpGatewayApplication.class, args);
		}
		catch (RuntimeException ex) {
			// Spring Boot has printed the failure report. A start that failed ends the
			// process with a non-zero status (a container is restarted, a script sees
			// it),
			// whatever threads a library left behind.
			System.exit(1);
		}
	}

}
