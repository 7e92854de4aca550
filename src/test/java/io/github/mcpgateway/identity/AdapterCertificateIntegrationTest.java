package io.github.mcpgateway.identity;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import javax.net.ssl.SSLContext;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.mcpgateway.support.TestCertificates;
import io.github.mcpgateway.support.TestJwks;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestUpstream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real TLS handshakes against the gateway listening with HTTPS and client-auth
 * {@code want}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class AdapterCertificateIntegrationTest {

	private static final TestCertificates ca = TestCertificates.authority("gateway-test-ca");

	private static final TestCertificates otherCa = TestCertificates.authority("someone-elses-ca");

	private static final TestUpstream upstream = TestUpstream.start();

	private static final String SPIFFE = "spiffe://test.local/ns/blue/sa/agent-7";

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws IOException {
		Path policy = Files.createTempFile("policy", ".yaml");
		Files.writeString(policy, """
				servers:
				  - namespace: test
				    name: adapter
				    uid: uid-adapter
				    upstream: %1$s/adapter
				    path: /mcp/test/adapter
				    identity: adapter-certificate
				    grants:
				      - principal: { agent: agent-7, team: blue }
				        tools: [echo]
				  - namespace: test
				    name: echo
				    uid: uid-echo
				    upstream: %1$s/mcp
				    path: /mcp/test/echo
				    grants:
				      - tools: ["*"]
				""".formatted(upstream.url("")));
		registry.add("gateway.policy.location", policy::toString);
		registry.add("gateway.identity.oauth.issuer", () -> TestJwks.ISSUER);
		registry.add("gateway.identity.oauth.jwk-set-uri", () -> TestJwks.get().jwksUri());
		registry.add("gateway.identity.oauth.audiences", () -> TestJwks.AUDIENCE);
		registry.add("gateway.identity.certificate.san-uri-pattern",
				() -> "spiffe://test\\.local/ns/(?<team>[^/]+)/sa/(?<agent>[^/]+)");
		registry.add("server.ssl.enabled", () -> "true");
		registry.add("server.ssl.key-store", () -> ca.serverKeyStore().toString());
		registry.add("server.ssl.key-store-password", () -> TestCertificates.PASSWORD);
		registry.add("server.ssl.key-store-type", () -> "PKCS12");
		registry.add("server.ssl.trust-store", () -> ca.trustStore().toString());
		registry.add("server.ssl.trust-store-password", () -> TestCertificates.PASSWORD);
		registry.add("server.ssl.trust-store-type", () -> "PKCS12");
		registry.add("server.ssl.client-auth", () -> "want");
		// Tomcat warns that TLS 1.3 has no post-handshake auth; the certificate is asked
		// for at the handshake (client-auth want), so that does not apply here.
		registry.add("logging.level.org.apache.tomcat.util.net.SSLUtilBase", () -> "error");
	}

	@BeforeEach
	void reset() {
		upstream.reset();
	}

	@Test
	void trustedCertificateYieldsTheMappedPrincipal() throws Exception {
		SSLContext adapter = ca.client(SPIFFE, ca);

		HttpResponse<String> granted = post(adapter, "/mcp/test/adapter", null, "echo");
		HttpResponse<String> notGranted = post(adapter, "/mcp/test/adapter", null, "admin_reset");

		assertThat(granted.statusCode()).isEqualTo(200);
		assertThat(notGranted.body()).contains("\"code\":\"tool_not_granted\"");
		assertThat(upstream.received()).singleElement()
			.satisfies((received) -> assertThat(received.header("Authorization")).isNull());
	}

	@Test
	void certificateFromAnotherAuthorityIsRejected() throws InterruptedException {
		SSLContext stranger = otherCa.client(SPIFFE, ca);

		// The server names its trusted authorities in the handshake, so a JSSE client
		// holding only a foreign certificate sends none; a client that sent it anyway
		// would fail the handshake.
		try {
			HttpResponse<String> response = post(stranger, "/mcp/test/adapter", null, "echo");
			assertThat(response.statusCode()).isEqualTo(401);
			assertThat(response.body()).contains("\"code\":\"certificate_required\"");
		}
		catch (IOException handshakeFailed) {
			assertThat(handshakeFailed).hasMessageContaining("certificate");
		}
		assertThat(upstream.count()).isZero();
	}

	@Test
	void certificateThatMapsToNothingIsUnauthorized() throws Exception {
		HttpResponse<String> response = post(ca.client("spiffe://elsewhere/x", ca), "/mcp/test/adapter", null, "echo");

		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.body()).contains("\"code\":\"certificate_required\"");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void bearerTokenAloneIsNotAcceptedOnACertificateServer() throws Exception {
		HttpResponse<String> response = post(TestCertificates.anonymousClient(ca), "/mcp/test/adapter",
				TestJwts.jwt().team("blue").agent("agent-7").sign(), "echo");

		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().firstValue("WWW-Authenticate")).isEmpty();
		assertThat(response.body()).contains("\"code\":\"certificate_required\"");
		assertThat(upstream.count()).isZero();
	}

	@Test
	void certificateIsNotAcceptedInPlaceOfATokenOnAnOAuthServer() throws Exception {
		HttpResponse<String> response = post(ca.client(SPIFFE, ca), "/mcp/test/echo", null, "echo");

		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(upstream.count()).isZero();
	}

	private HttpResponse<String> post(SSLContext ssl, String path, String token, String tool)
			throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
					+ "\"params\":{\"name\":\"" + tool + "\",\"arguments\":{}}}"));
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		HttpClient client = HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_1_1).build();
		return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}
