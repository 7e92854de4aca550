package io.github.mcpgateway.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.mcpgateway.McpGatewayApplication;

/**
 * A whole gateway as its own application context on a free port, for tests that need
 * several (replicas) or need to stop one (shutdown), which a shared
 * {@code @SpringBootTest} context cannot give. Each trusts {@link TestJwks} and serves
 * one server, {@code test/echo} (UID {@code uid-echo}) at {@link #PATH}, every tool
 * granted to everyone.
 */
public final class GatewayReplica {

	public static final String PATH = "/mcp/test/echo";

	private GatewayReplica() {
	}

	/**
	 * A policy file with the one server in front of {@code upstream}, every tool granted.
	 */
	public static Path policy(TestUpstream upstream) {
		return policy(upstream, "\"*\"");
	}

	/**
	 * A policy file with the one server in front of {@code upstream}, granting every
	 * verified principal {@code tools} (a YAML flow list's items).
	 */
	public static Path policy(TestUpstream upstream, String tools) {
		return policy(upstream.url("/mcp"), tools);
	}

	/**
	 * A policy file with the one server in front of the upstream at {@code upstreamUrl},
	 * granting every verified principal {@code tools}.
	 */
	public static Path policy(String upstreamUrl, String tools) {
		try {
			Path policy = Files.createTempFile("policy", ".yaml");
			Files.writeString(policy, """
					servers:
					  - namespace: test
					    name: echo
					    uid: uid-echo
					    upstream: %s
					    path: %s
					    grants:
					      - tools: [%s]
					""".formatted(upstreamUrl, PATH, tools));
			return policy;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Starts a gateway on {@code policy}; {@code properties} add to or override the
	 * defaults (immediate shutdown, no JMX).
	 */
	public static ConfigurableApplicationContext start(Path policy, Map<String, String> properties) {
		Map<String, Object> all = new HashMap<>(Map.of("server.port", "0", "server.shutdown", "immediate",
				"spring.jmx.enabled", "false", "gateway.policy.location", policy.toString(),
				"gateway.identity.oauth.issuer", TestJwks.ISSUER, "gateway.identity.oauth.jwk-set-uri",
				TestJwks.get().jwksUri(), "gateway.identity.oauth.audiences", TestJwks.AUDIENCE,
				"management.endpoint.health.show-details", "always"));
		all.putAll(properties);
		return new SpringApplicationBuilder(McpGatewayApplication.class).properties(all).run();
	}

	/**
	 * A JSON-RPC POST to {@link #PATH} of {@code gateway} by the bearer of {@code token},
	 * in {@code session} and with {@code key} when they are not {@code null}.
	 */
	public static HttpRequest post(ConfigurableApplicationContext gateway, String token, @Nullable String session,
			@Nullable String key, String body) {
		return post(uri(gateway, PATH), token, session, key, body).build();
	}

	/** The same POST to any MCP endpoint (a load balancer, say), to finish building. */
	public static HttpRequest.Builder post(URI target, String token, @Nullable String session, @Nullable String key,
			String body) {
		HttpRequest.Builder request = HttpRequest.newBuilder(target)
			.timeout(Duration.ofSeconds(20))
			.header("Authorization", "Bearer " + token)
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (session != null) {
			request.header("Mcp-Session-Id", session);
		}
		if (key != null) {
			request.header("Idempotency-Key", key);
		}
		return request;
	}

	/** A GET of {@code path} on a running gateway (health, say). */
	public static HttpRequest get(ConfigurableApplicationContext gateway, String path) {
		return HttpRequest.newBuilder(uri(gateway, path)).build();
	}

	/** The URL of {@code path} on a running gateway. */
	public static URI uri(ConfigurableApplicationContext gateway, String path) {
		int port = ((WebServerApplicationContext) gateway).getWebServer().getPort();
		return URI.create("http://127.0.0.1:" + port + path);
	}

}
