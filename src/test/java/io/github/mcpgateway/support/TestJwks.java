package io.github.mcpgateway.support;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.util.UUID;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.sun.net.httpserver.HttpServer;

/**
 * A JWKS served over real HTTP on loopback, with the RSA key that signs test tokens. A
 * second key (never published) signs tokens that must fail signature checks.
 */
public final class TestJwks {

	public static final String ISSUER = "https://issuer.test";

	public static final String AUDIENCE = "mcp-gateway-test";

	private static final TestJwks INSTANCE = new TestJwks();

	private final RSAKey publishedKey = rsaKey();

	private final RSAKey unpublishedKey = rsaKey();

	private final HttpServer server;

	private TestJwks() {
		try {
			this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
			this.server.createContext("/jwks.json", (exchange) -> {
				byte[] body = new JWKSet(this.publishedKey.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
				exchange.getResponseHeaders().add("Content-Type", "application/json");
				exchange.sendResponseHeaders(200, body.length);
				try (OutputStream out = exchange.getResponseBody()) {
					out.write(body);
				}
			});
			this.server.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	public static TestJwks get() {
		return INSTANCE;
	}

	public String jwksUri() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + "/jwks.json";
	}

	/**
	 * Serves {@code jwks} at a URL of its own on this server (for keys other than the
	 * issuer's, a client's public key, say) and returns that URL.
	 */
	public static String serve(JWKSet jwks) {
		String path = "/extra/" + UUID.randomUUID() + ".json";
		INSTANCE.server.createContext(path, (exchange) -> {
			byte[] body = jwks.toString().getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		return "http://127.0.0.1:" + INSTANCE.server.getAddress().getPort() + path;
	}

	RSAKey publishedKey() {
		return this.publishedKey;
	}

	RSAKey unpublishedKey() {
		return this.unpublishedKey;
	}

	static RSAKey rsaKey() {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
			generator.initialize(2048);
			var pair = generator.generateKeyPair();
			return new RSAKey.Builder((RSAPublicKey) pair.getPublic()).privateKey((RSAPrivateKey) pair.getPrivate())
				.keyID(UUID.randomUUID().toString())
				.build();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
