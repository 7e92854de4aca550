package io.github.mcpgateway.admission;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestUpstream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 36, finding 2, from outside: one principal over its cap on requests in flight, on
 * open listen streams and on sessions is held to it, while another principal still gets
 * through; and one client address over its cap is refused before its token is looked at.
 * The upstream holds the calls and streams it is told to until the test lets them go.
 */
@TestPropertySource(properties = { "gateway.admission.max-requests-per-principal=2",
		"gateway.admission.max-streams-per-principal=1", "gateway.admission.max-requests-per-address=4",
		"gateway.admission.max-streams=2", "gateway.session.max-bindings=20", "gateway.session.max-per-principal=5",
		"gateway.proxy.first-byte-timeout=10s", "gateway.proxy.idle-timeout=10s" })
class CallerCapsIntegrationTest extends GatewayIntegrationTest {

	private static final String ECHO = "/mcp/test/echo";

	private static final String DELEGATED = "/mcp/test/delegated";

	private static final String MALLORY = TestJwts.jwt().human("mallory").team("blue").sign();

	private static final String MALLORY_OTHER_AGENT = TestJwts.jwt()
		.human("mallory")
		.agent("bot-2")
		.team("blue")
		.sign();

	private static final String CAROL = TestJwts.jwt().human("carol").sign();

	private final CountDownLatch release = new CountDownLatch(1);

	private final List<CompletableFuture<HttpResponse<InputStream>>> held = new ArrayList<>();

	@AfterEach
	void letHeldRequestsGo() {
		this.release.countDown();
		for (CompletableFuture<HttpResponse<InputStream>> request : this.held) {
			request.thenAccept((response) -> {
				try (InputStream body = response.body()) {
					body.readAllBytes();
				}
				catch (Exception ex) {
					// Finished either way.
				}
			});
		}
	}

	@Test
	void principalOverItsRequestsInFlightIsRefusedWhileAnotherGetsThrough() {
		upstream.reply(holdingCallsNamed("notes_hold"));
		hold(call(MALLORY, "notes_hold"));
		hold(call(MALLORY_OTHER_AGENT, "notes_hold"));
		awaitUpstream(2);

		HttpResponse<String> refused = post(ECHO, MALLORY, toolCall(3, "echo"));
		HttpResponse<String> other = post(ECHO, CAROL, toolCall(4, "echo"));

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.body()).contains("\"code\":\"too_many_requests\"");
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
		assertThat(refused.headers().firstValue("Connection")).as("its body is not read").hasValue("close");
		assertThat(other.statusCode()).as(other.body()).isEqualTo(200);
		assertThat(upstream.count()).isEqualTo(3);

		this.release.countDown();
		awaitTrue(() -> post(ECHO, MALLORY, toolCall(5, "echo")).statusCode() == 200);
	}

	@Test
	void principalOverItsOpenStreamsIsRefusedWhileAnotherOpensOne() {
		upstream.reply(holdingStreams());
		hold(listen(MALLORY));
		awaitUpstream(1);

		HttpResponse<String> refused = send(listenRequest(MALLORY_OTHER_AGENT).build(),
				HttpResponse.BodyHandlers.ofString());
		CompletableFuture<HttpResponse<InputStream>> other = hold(listen(CAROL));

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.body()).contains("\"code\":\"too_many_streams\"");
		assertThat(other.join().statusCode()).isEqualTo(200);
		assertThat(post(ECHO, MALLORY, toolCall(6, "echo")).statusCode()).as("calls are not streams").isEqualTo(200);
	}

	@Test
	void aSubscriptionsListenPostIsAStreamOfItsHuman() {
		upstream.reply(holdingStreams());
		hold(listen(MALLORY));
		awaitUpstream(1);

		HttpResponse<String> refused = send(HttpRequest.newBuilder(uri(ECHO))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("Authorization", "Bearer " + MALLORY_OTHER_AGENT)
			.header("Mcp-Method", "subscriptions/listen")
			.POST(HttpRequest.BodyPublishers.ofString(jsonRpc(12, "subscriptions/listen", "{}")))
			.build(), HttpResponse.BodyHandlers.ofString());

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.body()).contains("\"code\":\"too_many_streams\"");
		assertThat(upstream.count()).isEqualTo(1);
	}

	@Test
	void theReplicaHoldsAtMostItsStreamsOfAllCallersAndCallsStillPass() {
		upstream.reply(holdingStreams());
		hold(listen(MALLORY));
		hold(listen(CAROL));
		awaitUpstream(2);

		HttpResponse<String> refused = send(listenRequest(TestJwts.jwt().human("dave").sign()).build(),
				HttpResponse.BodyHandlers.ofString());
		HttpResponse<String> call = post(ECHO, TestJwts.jwt().human("dave").sign(), toolCall(13, "echo"));

		assertThat(refused.statusCode()).isEqualTo(503);
		assertThat(refused.body()).contains("\"code\":\"stream_capacity\"");
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("5");
		assertThat(call.statusCode()).as(call.body()).isEqualTo(200);
		this.release.countDown();
		awaitTrue(() -> send(listenRequest(TestJwts.jwt().human("erin").sign()).timeout(Duration.ofSeconds(5)).build(),
				HttpResponse.BodyHandlers.discarding())
			.statusCode() == 200);
	}

	@Test
	void clientAddressOverItsRequestsInFlightIsRefusedBeforeItsTokenIsRead() {
		upstream.reply(holdingCallsNamed("echo"));
		for (int i = 0; i < 4; i++) {
			hold(call(DELEGATED, "opaque-upstream-credential", "echo"));
		}
		awaitUpstream(4);

		HttpResponse<String> refused = post(ECHO, "not-a-token", toolCall(7, "echo"));

		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.body()).contains("\"code\":\"too_many_requests\"");
		this.release.countDown();
		awaitTrue(() -> post(ECHO, "not-a-token", toolCall(8, "echo")).statusCode() == 401);
	}

	/** Two servers, since each server's bulkhead is 4 in the tests. */
	@Test
	void verifiedCallersBehindOneAddressDoNotShareItsCap() {
		upstream.reply(holdingCallsNamed("notes_hold"));
		hold(call(MALLORY, "notes_hold"));
		hold(call(MALLORY_OTHER_AGENT, "notes_hold"));
		hold(call("/mcp/test/slow", CAROL, "notes_hold"));
		hold(call("/mcp/test/slow", CAROL, "notes_hold"));
		awaitUpstream(4);

		HttpResponse<String> dave = post(ECHO, TestJwts.jwt().human("dave").sign(), toolCall(10, "echo"));
		HttpResponse<String> unauthenticated = post(ECHO, "not-a-token", toolCall(11, "echo"));

		assertThat(dave.statusCode())
			.as("four held requests of verified callers hold no place of the address: " + dave.body())
			.isEqualTo(200);
		assertThat(unauthenticated.statusCode()).isEqualTo(401);
	}

	@Test
	void oneHumansSessionFloodLeavesAnotherHumansSessionAlive() {
		upstream.reply(Replies.sessions("flood"));
		String carols = initialize(ECHO, CAROL);

		for (int i = 0; i < 50; i++) {
			initialize(ECHO, (i % 2 == 0) ? MALLORY : MALLORY_OTHER_AGENT);
		}
		HttpResponse<String> carolsCall = post(ECHO, CAROL, toolCall(9, "echo"), "Mcp-Session-Id", carols);

		assertThat(carolsCall.statusCode()).as(carolsCall.body()).isEqualTo(200);
	}

	private CompletableFuture<HttpResponse<InputStream>> hold(CompletableFuture<HttpResponse<InputStream>> request) {
		this.held.add(request);
		return request;
	}

	private CompletableFuture<HttpResponse<InputStream>> call(String token, String tool) {
		return call(ECHO, token, tool);
	}

	private CompletableFuture<HttpResponse<InputStream>> call(String path, String token, String tool) {
		return http.sendAsync(HttpRequest.newBuilder(uri(path))
			.timeout(Duration.ofSeconds(20))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("Authorization", "Bearer " + token)
			.POST(HttpRequest.BodyPublishers.ofString(toolCall(1, tool)))
			.build(), HttpResponse.BodyHandlers.ofInputStream());
	}

	private CompletableFuture<HttpResponse<InputStream>> listen(String token) {
		return http.sendAsync(listenRequest(token).build(), HttpResponse.BodyHandlers.ofInputStream());
	}

	private HttpRequest.Builder listenRequest(String token) {
		return HttpRequest.newBuilder(uri(ECHO))
			.timeout(Duration.ofSeconds(20))
			.header("Accept", "text/event-stream")
			.header("Authorization", "Bearer " + token)
			.GET();
	}

	private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
		try {
			return http.send(request, handler);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** Holds the {@code tools/call}s of {@code tool} until released; answers the rest. */
	private TestUpstream.Reply holdingCallsNamed(String tool) {
		TestUpstream.Reply answer = Replies.jsonResult("{\"ok\":true}");
		return (request, exchange) -> {
			if (request.bodyText().contains("\"name\":\"" + tool + "\"")) {
				awaitRelease();
			}
			answer.write(request, exchange);
		};
	}

	/** Opens an event stream for a GET and holds it until released. */
	private TestUpstream.Reply holdingStreams() {
		TestUpstream.Reply answer = Replies.jsonResult("{\"ok\":true}");
		return (request, exchange) -> {
			if (!"GET".equals(request.method())) {
				answer.write(request, exchange);
				return;
			}
			exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
			exchange.sendResponseHeaders(200, 0);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(": open\n\n".getBytes(StandardCharsets.UTF_8));
				out.flush();
				awaitRelease();
			}
		};
	}

	private void awaitRelease() {
		try {
			this.release.await(15, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void awaitUpstream(int requests) {
		awaitTrue(() -> upstream.count() >= requests);
	}

	private static void awaitTrue(BooleanSupplier condition) {
		long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime()).as("condition within 10 s").isLessThan(end);
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

}
