package io.github.mcpgateway.upstreamauth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.TestAuthorizationServer;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestUpstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Upstream credentials against a real Spring Authorization Server
 * ({@link TestAuthorizationServer}) and a recording upstream: what the upstream receives,
 * how often the gateway asks the token endpoint, and what a caller gets when it cannot
 * have a token.
 */
@ExtendWith(OutputCaptureExtension.class)
@TestPropertySource(properties = { "spring.security.oauth2.client.registration.exchange.client-id=gateway",
		"spring.security.oauth2.client.registration.exchange.client-secret=gateway-secret",
		"spring.security.oauth2.client.registration.exchange.authorization-grant-type=urn:ietf:params:oauth:grant-type:token-exchange",
		"spring.security.oauth2.client.registration.exchange.provider=test-as",
		"spring.security.oauth2.client.registration.gateway-self.client-id=gateway",
		"spring.security.oauth2.client.registration.gateway-self.client-secret=gateway-secret",
		"spring.security.oauth2.client.registration.gateway-self.authorization-grant-type=client_credentials",
		"spring.security.oauth2.client.registration.gateway-self.provider=test-as",
		"spring.security.oauth2.client.registration.short.client-id=gateway-short",
		"spring.security.oauth2.client.registration.short.client-secret=short-secret",
		"spring.security.oauth2.client.registration.short.authorization-grant-type=client_credentials",
		"spring.security.oauth2.client.registration.short.provider=test-as",
		"spring.security.oauth2.client.registration.signed.client-id=gateway-jwt",
		"spring.security.oauth2.client.registration.signed.client-authentication-method=private_key_jwt",
		"spring.security.oauth2.client.registration.signed.authorization-grant-type=client_credentials",
		"spring.security.oauth2.client.registration.signed.provider=test-as",
		"spring.security.oauth2.client.registration.not-allowed.client-id=no-exchange",
		"spring.security.oauth2.client.registration.not-allowed.client-secret=no-exchange-secret",
		"spring.security.oauth2.client.registration.not-allowed.authorization-grant-type=urn:ietf:params:oauth:grant-type:token-exchange",
		"spring.security.oauth2.client.registration.not-allowed.provider=test-as",
		"gateway.upstream-auth.read-timeout=1s", "gateway.upstream-auth.retry-after=7s",
		"gateway.proxy.bulkhead.max-concurrent-calls=32" })
class UpstreamAuthIntegrationTest extends GatewayIntegrationTest {

	private static final TestAuthorizationServer authorizationServer = TestAuthorizationServer.start();

	private static final TestUpstream recording = TestUpstream.start();

	private static final Path clientKey = writeClientKey();

	@DynamicPropertySource
	static void authorizationServerProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.security.oauth2.client.provider.test-as.token-uri", authorizationServer::tokenUri);
		registry.add("gateway.upstream-auth.client-keys.signed.jwk", () -> "file:" + clientKey);
	}

	@AfterAll
	static void stopAuthorizationServer() {
		authorizationServer.close();
	}

	@BeforeEach
	void upstreamAuthPolicy() {
		authorizationServer.reset();
		recording.reset();
		policy
			.write("""
					servers:
					  - namespace: ua
					    name: tickets
					    uid: uid-tickets
					    upstream: %1$s/tickets
					    path: /mcp/ua/tickets
					    upstream-auth: { mode: token-exchange, client: exchange, audience: tickets-api }
					    grants:
					      - tools: ["*"]
					  - namespace: ua
					    name: tickets-act
					    uid: uid-tickets-act
					    upstream: %1$s/tickets-act
					    path: /mcp/ua/tickets-act
					    upstream-auth:
					      mode: token-exchange
					      client: exchange
					      actor-client: gateway-self
					      resource: https://tickets.example/mcp
					      scope: tickets.read
					    grants:
					      - tools: ["*"]
					  - namespace: ua
					    name: reports
					    uid: uid-reports
					    upstream: %1$s/reports
					    path: /mcp/ua/reports
					    upstream-auth: { mode: client-credentials, client: short, audience: reports-api, principal-headers: true }
					    grants:
					      - tools: ["*"]
					  - namespace: ua
					    name: signed
					    uid: uid-signed
					    upstream: %1$s/signed
					    path: /mcp/ua/signed
					    upstream-auth: { mode: client-credentials, client: signed }
					    grants:
					      - tools: ["*"]
					  - namespace: ua
					    name: not-allowed
					    uid: uid-not-allowed
					    upstream: %1$s/not-allowed
					    path: /mcp/ua/not-allowed
					    upstream-auth: { mode: token-exchange, client: not-allowed, audience: tickets-api }
					    grants:
					      - tools: ["*"]
					  - namespace: ua
					    name: plain
					    uid: uid-plain
					    upstream: %1$s/plain
					    path: /mcp/ua/plain
					    grants:
					      - tools: ["*"]
					"""
				.formatted(recording.url("")));
		this.policyReloader.reloadNow();
	}

	@Test
	void theUpstreamReceivesAnExchangedTokenForItsAudienceNamingTheCallerNeverTheCallersToken() {
		String callerToken = TestJwts.jwt().human("dana").team("green").sign();

		HttpResponse<String> response = post("/mcp/ua/tickets", callerToken, toolCall(1, "echo"));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(recording.count()).isEqualTo(1);
		TestUpstream.Received received = recording.received().get(0);
		assertThat(received.headers().toString()).doesNotContain(callerToken);
		Jwt upstreamToken = authorizationServer.decoder().decode(bearer(received));
		assertThat(upstreamToken.getSubject()).isEqualTo("dana");
		assertThat(upstreamToken.getAudience()).containsExactly("tickets-api");
		assertThat(upstreamToken.getClaimAsString("team")).isEqualTo("green");
		assertThat(upstreamToken.getIssuer()).hasToString(authorizationServer.issuer());
		assertThat(upstreamToken.hasClaim("act")).isFalse();
		Map<String, String> exchange = onlyRequest(AuthorizationGrantType.TOKEN_EXCHANGE);
		assertThat(exchange).containsEntry("subject_token", callerToken)
			.containsEntry("subject_token_type", "urn:ietf:params:oauth:token-type:access_token")
			.containsEntry("audience", "tickets-api")
			.doesNotContainKey("actor_token");
	}

	@Test
	void withAnActorClientTheUpstreamTokenNamesTheGatewayAsActorAndCarriesTheResource() {
		HttpResponse<String> response = post("/mcp/ua/tickets-act", TestJwts.jwt().human("erin").sign(),
				toolCall(2, "echo"));

		assertThat(response.statusCode()).isEqualTo(200);
		Jwt upstreamToken = authorizationServer.decoder().decode(bearer(recording.received().get(0)));
		assertThat(upstreamToken.getSubject()).isEqualTo("erin");
		assertThat(upstreamToken.getAudience()).containsExactly("https://tickets.example/mcp");
		assertThat(upstreamToken.getClaimAsStringList("scope")).containsExactly("tickets.read");
		assertThat(upstreamToken.getClaimAsMap("act")).containsEntry("sub", "gateway");
		Map<String, String> exchange = onlyRequest(AuthorizationGrantType.TOKEN_EXCHANGE);
		assertThat(exchange).containsEntry("resource", "https://tickets.example/mcp")
			.containsEntry("scope", "tickets.read")
			.containsKey("actor_token");
	}

	@Test
	void aHundredCallsByOneCallerCostOneExchangeAndAnotherCallerGetsItsOwn() {
		String frank = TestJwts.jwt().human("frank").sign();
		for (int i = 0; i < 100; i++) {
			assertThat(post("/mcp/ua/tickets", frank, toolCall(i, "echo")).statusCode()).isEqualTo(200);
		}
		assertThat(authorizationServer.tokenRequests(AuthorizationGrantType.TOKEN_EXCHANGE)).isEqualTo(1);
		assertThat(recording.received().stream().map(UpstreamAuthIntegrationTest::bearer).distinct()).hasSize(1);

		assertThat(post("/mcp/ua/tickets", TestJwts.jwt().human("gina").sign(), toolCall(101, "echo")).statusCode())
			.isEqualTo(200);

		assertThat(authorizationServer.tokenRequests(AuthorizationGrantType.TOKEN_EXCHANGE)).isEqualTo(2);
		Jwt ginas = authorizationServer.decoder().decode(bearer(recording.received().get(100)));
		assertThat(ginas.getSubject()).isEqualTo("gina");
	}

	@Test
	void sixteenConcurrentFirstCallsCauseOneExchange() throws Exception {
		String hana = TestJwts.jwt().human("hana").sign();
		authorizationServer.delay(Duration.ofMillis(300));
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService callers = Executors.newFixedThreadPool(16);
		try {
			List<CompletableFuture<Integer>> calls = new ArrayList<>();
			for (int i = 0; i < 16; i++) {
				int id = i;
				calls.add(CompletableFuture.supplyAsync(() -> {
					awaitQuietly(start);
					return post("/mcp/ua/tickets", hana, toolCall(id, "echo")).statusCode();
				}, callers));
			}
			start.countDown();
			assertThat(calls).allSatisfy((call) -> assertThat(call.join()).isEqualTo(200));
		}
		finally {
			callers.shutdownNow();
		}
		assertThat(authorizationServer.tokenRequests(AuthorizationGrantType.TOKEN_EXCHANGE)).isEqualTo(1);
		assertThat(recording.count()).isEqualTo(16);
	}

	@Test
	void aRefusedExchangeIs403BeforeDispatchAndAKeyedRetryRunsOnceItSucceeds() {
		authorizationServer.refuseSubject("ivan");
		String ivan = TestJwts.jwt().human("ivan").sign();

		HttpResponse<String> refused = post("/mcp/ua/tickets", ivan, toolCall(7, "echo"), "Idempotency-Key", "k-ivan");

		assertThat(refused.statusCode()).isEqualTo(200);
		assertThat(refused.body()).contains("\"id\":7").contains("\"code\":\"upstream_token_refused\"");
		assertThat(recording.count()).isZero();

		authorizationServer.reset();
		HttpResponse<String> retried = post("/mcp/ua/tickets", ivan, toolCall(7, "echo"), "Idempotency-Key", "k-ivan");
		HttpResponse<String> again = post("/mcp/ua/tickets", ivan, toolCall(7, "echo"), "Idempotency-Key", "k-ivan");

		assertThat(retried.statusCode()).isEqualTo(200);
		assertThat(again.statusCode()).isEqualTo(200);
		assertThat(again.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(recording.count()).isEqualTo(1);
	}

	@Test
	void aClientTheServerDoesNotAllowToExchangeIsRefusedWithNothingUpstream() {
		HttpResponse<String> refused = post("/mcp/ua/not-allowed", validToken(), toolCall(8, "echo"));

		assertThat(refused.statusCode()).isEqualTo(200);
		assertThat(refused.body()).contains("\"code\":\"upstream_token_refused\"");
		assertThat(authorizationServer.tokenRequests(AuthorizationGrantType.TOKEN_EXCHANGE)).isEqualTo(1);
		assertThat(recording.count()).isZero();
	}

	@Test
	void aStoppedAuthorizationServerIs503WithRetryAfterAndAKeyedRetryRunsOnceItIsBack() {
		String jane = TestJwts.jwt().human("jane").sign();
		authorizationServer.stop();
		try {
			HttpResponse<String> unavailable = post("/mcp/ua/tickets", jane, toolCall(9, "echo"), "Idempotency-Key",
					"k-jane");

			assertThat(unavailable.statusCode()).isEqualTo(503);
			assertThat(unavailable.headers().firstValue("Retry-After")).hasValue("7");
			assertThat(unavailable.body()).contains("\"id\":9").contains("\"code\":\"upstream_token_unavailable\"");
			assertThat(recording.count()).isZero();
		}
		finally {
			authorizationServer.restart();
		}
		HttpResponse<String> retried = post("/mcp/ua/tickets", jane, toolCall(9, "echo"), "Idempotency-Key", "k-jane");
		HttpResponse<String> again = post("/mcp/ua/tickets", jane, toolCall(9, "echo"), "Idempotency-Key", "k-jane");

		assertThat(retried.statusCode()).isEqualTo(200);
		assertThat(again.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(recording.count()).isEqualTo(1);
	}

	@Test
	void aTokenEndpointSlowerThanTheReadTimeoutIs503() {
		authorizationServer.delay(Duration.ofSeconds(3));

		long start = System.nanoTime();
		HttpResponse<String> unavailable = post("/mcp/ua/tickets", TestJwts.jwt().human("kim").sign(),
				toolCall(10, "echo"));

		assertThat(unavailable.statusCode()).isEqualTo(503);
		assertThat(unavailable.body()).contains("\"code\":\"upstream_token_unavailable\"");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(2500));
		assertThat(recording.count()).isZero();
	}

	@Test
	void clientCredentialsIsOneTokenForManyCallersRefreshedAfterExpiryWithVerifiedPrincipalHeaders() {
		for (String human : List.of("lea", "max", "noor")) {
			HttpResponse<String> response = post("/mcp/ua/reports", TestJwts.jwt().human(human).sign(),
					toolCall(11, "echo"), "Mcp-Gateway-Human", "spoofed");
			assertThat(response.statusCode()).isEqualTo(200);
		}

		assertThat(authorizationServer.tokenRequests(AuthorizationGrantType.CLIENT_CREDENTIALS)).isEqualTo(1);
		Set<String> tokens = recording.received()
			.stream()
			.map(UpstreamAuthIntegrationTest::bearer)
			.collect(Collectors.toSet());
		assertThat(tokens).hasSize(1);
		Jwt gatewayToken = authorizationServer.decoder().decode(tokens.iterator().next());
		assertThat(gatewayToken.getSubject()).isEqualTo("gateway-short");
		assertThat(gatewayToken.getAudience()).containsExactly("reports-api");
		assertThat(recording.received().stream().map((r) -> r.header("Mcp-Gateway-Human"))).containsExactly("lea",
				"max", "noor");
		assertThat(recording.received()).allSatisfy((r) -> {
			assertThat(r.header("Mcp-Gateway-Team")).isEqualTo("blue");
			assertThat(r.header("Mcp-Gateway-Agent")).isEqualTo("agent-1");
		});

		// Tokens of gateway-short live 2 s; the gateway uses one for half of that.
		await().pollDelay(Duration.ofMillis(1100)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			assertThat(post("/mcp/ua/reports", validToken(), toolCall(12, "echo")).statusCode()).isEqualTo(200);
			assertThat(authorizationServer.tokenRequests(AuthorizationGrantType.CLIENT_CREDENTIALS)).isEqualTo(2);
		});
		String refreshed = bearer(recording.received().get(recording.count() - 1));
		assertThat(refreshed).isNotIn(tokens);
	}

	@Test
	void aPrivateKeyJwtClientAuthenticatesWithASignedAssertion() {
		HttpResponse<String> response = post("/mcp/ua/signed", validToken(), toolCall(13, "echo"));

		assertThat(response.statusCode()).isEqualTo(200);
		Map<String, String> request = onlyRequest(AuthorizationGrantType.CLIENT_CREDENTIALS);
		assertThat(request)
			.containsEntry("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
			.containsKey("client_assertion")
			.doesNotContainKey("authorization");
		assertThat(authorizationServer.decoder().decode(bearer(recording.received().get(0))).getSubject())
			.isEqualTo("gateway-jwt");
	}

	@Test
	void aServerWithoutUpstreamAuthStillReceivesNoCredentialAndNoPrincipalHeaders() {
		HttpResponse<String> response = post("/mcp/ua/plain", validToken(), toolCall(14, "echo"), "Mcp-Gateway-Human",
				"spoofed");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(recording.received().get(0).header("Authorization")).isNull();
		assertThat(recording.received().get(0).header("Mcp-Gateway-Human")).isNull();
		assertThat(authorizationServer.tokenRequests()).isEmpty();
	}

	@Test
	void theAuditLineRecordsModeAndOutcomeButNeitherToken(CapturedOutput output) {
		String olga = TestJwts.jwt().human("olga").sign();
		assertThat(post("/mcp/ua/tickets", olga, toolCall(15, "echo")).statusCode()).isEqualTo(200);
		assertThat(post("/mcp/ua/tickets", olga, toolCall(16, "echo")).statusCode()).isEqualTo(200);

		await().atMost(Duration.ofSeconds(5))
			.until(() -> output.getOut().lines().filter((line) -> line.contains("\"human\":\"olga\"")).count() >= 2);
		List<String> audit = output.getOut().lines().filter((line) -> line.contains("\"human\":\"olga\"")).toList();
		assertThat(audit).anySatisfy((line) -> assertThat(line).contains("\"upstream_auth\":\"token-exchange\"")
			.contains("\"upstream_auth_outcome\":\"fetched\""));
		assertThat(audit).anySatisfy((line) -> assertThat(line).contains("\"upstream_auth_outcome\":\"cached\""));
		String exchanged = bearer(recording.received().get(0));
		assertThat(output.getAll()).doesNotContain(olga.substring(olga.lastIndexOf('.') + 1))
			.doesNotContain(exchanged.substring(exchanged.lastIndexOf('.') + 1));
	}

	@Test
	void aPolicyNamingAnUnknownRegistrationIsRefusedAndTheLastGoodOneStays(CapturedOutput output) {
		policy.write("""
				servers:
				  - namespace: ua
				    name: other
				    uid: uid-other
				    upstream: %s/other
				    path: /mcp/ua/other
				    upstream-auth:
				      mode: client-credentials
				      client: nope
				    grants:
				      - tools: ["*"]
				""".formatted(recording.url("")));
		this.policyReloader.reloadNow();

		assertThat(output.getOut()).contains("line 9 (servers[0].upstream-auth.client): no client registration 'nope'");
		assertThat(post("/mcp/ua/other", validToken(), toolCall(17, "echo")).statusCode()).isEqualTo(404);
		assertThat(post("/mcp/ua/plain", validToken(), toolCall(18, "echo")).statusCode()).isEqualTo(200);
	}

	private static Map<String, String> onlyRequest(AuthorizationGrantType grant) {
		List<Map<String, String>> requests = authorizationServer.tokenRequests()
			.stream()
			.filter((request) -> grant.getValue().equals(request.get("grant_type")))
			.toList();
		assertThat(requests).hasSize(1);
		return requests.get(0);
	}

	private static String bearer(TestUpstream.Received received) {
		String authorization = received.header("Authorization");
		assertThat(authorization).startsWith("Bearer ");
		return authorization.substring("Bearer ".length());
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static Path writeClientKey() {
		try {
			Path file = Files.createTempFile("gateway-client", ".jwk.json");
			Files.writeString(file, TestAuthorizationServer.CLIENT_KEY.toJSONString());
			return file;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
