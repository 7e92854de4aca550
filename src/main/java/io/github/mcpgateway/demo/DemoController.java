package io.github.mcpgateway.demo;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The demo issuer's endpoints: {@code GET /demo/token} returns a signed token as plain
 * text (only to callers on loopback), {@code GET /demo/jwks.json} its public key.
 */
@RestController
@Profile("demo")
class DemoController {

	private final DemoTokenIssuer issuer;

	DemoController(DemoTokenIssuer issuer) {
		this.issuer = issuer;
	}

	@GetMapping(path = "/demo/token", produces = MediaType.TEXT_PLAIN_VALUE)
	String token(HttpServletRequest request, @RequestParam(defaultValue = "alice") String human,
			@RequestParam(defaultValue = "demo-agent") String agent, @RequestParam(defaultValue = "demo") String team,
			@RequestParam(defaultValue = "3600") long ttlSeconds) {
		if (!isLoopback(request.getRemoteAddr())) {
			throw new ResponseStatusException(HttpStatus.FORBIDDEN, "The demo issuer only serves loopback callers");
		}
		if (ttlSeconds < 1 || ttlSeconds > 86_400) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "ttlSeconds must be between 1 and 86400");
		}
		return this.issuer.issue(human, agent, team, Duration.ofSeconds(ttlSeconds)) + "\n";
	}

	@GetMapping(path = "/demo/jwks.json", produces = MediaType.APPLICATION_JSON_VALUE)
	Map<String, Object> jwks() {
		return this.issuer.jwks();
	}

	private static boolean isLoopback(String address) {
		try {
			return InetAddress.getByName(address).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

}
