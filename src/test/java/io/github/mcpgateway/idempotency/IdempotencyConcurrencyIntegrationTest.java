package io.github.mcpgateway.idempotency;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestUpstream.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Many concurrent duplicates over many keys while the upstream answers, per key, with
 * success, 4xx, 5xx or a reset mid-body. In the end state: at most one execution for
 * every key whose outcome the store keeps, nothing left in flight, and no key, token or
 * argument in the logs or metrics.
 */
@ExtendWith(OutputCaptureExtension.class)
class IdempotencyConcurrencyIntegrationTest extends IdempotencyIntegrationTest {

	private static final Pattern KEY_ID = Pattern.compile("\"text\":\"(secret-arg-[0-9a-f-]+-(\\d+))\"");

	private final Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();

	@Test
	void concurrentDuplicatesOverManyKeysRunEachKeptKeyAtMostOnce(CapturedOutput output) {
		upstream.reply(perKeyBehaviour());
		String run = uniqueKey();
		int keys = 24;
		int duplicates = 6;
		List<String> secrets = Collections.synchronizedList(new ArrayList<>());
		ExecutorService pool = Executors.newFixedThreadPool(48);
		try {
			List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
			for (int k = 0; k < keys; k++) {
				String token = TestJwts.jwt().human("concurrent-" + run + "-" + k).sign();
				String key = uniqueKey();
				String argument = "secret-arg-" + run + "-" + k;
				secrets.add(token);
				secrets.add(key);
				secrets.add(argument);
				String body = "{\"jsonrpc\":\"2.0\",\"id\":" + k
						+ ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"," + "\"arguments\":{\"text\":\""
						+ argument + "\"}}}";
				for (int d = 0; d < duplicates; d++) {
					calls.add(CompletableFuture.supplyAsync(() -> keyed("/mcp/test/slow", token, body, key), pool));
				}
			}
			calls.forEach(CompletableFuture::join);
		}
		finally {
			pool.shutdownNow();
		}

		this.executions.forEach((argument, count) -> {
			int behaviour = Integer.parseInt(argument.substring(argument.lastIndexOf('-') + 1)) % 4;
			if (behaviour != 1) {
				assertThat(count.get()).as(argument + " (behaviour " + behaviour + ")").isEqualTo(1);
			}
		});
		assertThat(this.executions).isNotEmpty();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.store.stats().inFlight() == 0);
		String scrape = send(HttpRequest.newBuilder(uri("/actuator/prometheus")).build()).body();
		String everything = output.getAll() + scrape;
		assertThat(secrets).allSatisfy((secret) -> assertThat(everything).doesNotContain(secret));
	}

	/**
	 * Per key: 0 success, 1 a 4xx, 2 a 5xx, 3 a reset mid-body; each after a short wait.
	 */
	private Reply perKeyBehaviour() {
		return (request, exchange) -> {
			Matcher matcher = KEY_ID.matcher(request.bodyText());
			if (!matcher.find()) {
				Replies.jsonResult("{}").write(request, exchange);
				return;
			}
			this.executions.computeIfAbsent(matcher.group(1), (k) -> new AtomicInteger()).incrementAndGet();
			sleep(50);
			switch (Integer.parseInt(matcher.group(2)) % 4) {
				case 0 -> Replies.jsonResult("{\"ok\":true}").write(request, exchange);
				case 1 -> Replies.raw(422, "application/json", "{}").write(request, exchange);
				case 2 -> Replies.raw(500, "application/json", "{}").write(request, exchange);
				default -> Replies.resetMidBody().write(request, exchange);
			}
		};
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
