package io.github.mcpgateway.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The soak's load: {@code threads} clients for {@code minutes}, half of the operations
 * keyed (retried on failure like a careful client: up to 5 attempts, honouring
 * in-flight), half unkeyed, while every 20 s one principal is revoked for 5 s. Prints the
 * tallies. Not a test. Arguments: gatewayBaseUrl tokensFile revocationFile threads
 * minutes.
 */
public final class SoakDriver {

	private static final Pattern CODE = Pattern.compile("\"data\":\\{\"code\":\"([a-z_]+)\"");

	private static final Map<String, LongAdder> tallies = new ConcurrentHashMap<>();

	private SoakDriver() {
	}

	public static void main(String[] args) throws Exception {
		String base = args[0];
		String[] tokens = Files.readString(Path.of(args[1])).trim().split("\\s+");
		Path revocations = Path.of(args[2]);
		int threads = Integer.parseInt(args[3]);
		Instant end = Instant.now().plus(Duration.ofMinutes(Long.parseLong(args[4])));
		HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
		pool.submit(() -> revoker(revocations, end));
		for (int t = 0; t < threads; t++) {
			String token = tokens[t % tokens.length];
			pool.submit(() -> {
				while (Instant.now().isBefore(end)) {
					operation(http, base, token, ThreadLocalRandom.current().nextBoolean());
				}
				return null;
			});
		}
		pool.shutdown();
		pool.awaitTermination(Duration.between(Instant.now(), end).toSeconds() + 60, TimeUnit.SECONDS);
		tallies.entrySet()
			.stream()
			.sorted(Map.Entry.comparingByKey())
			.forEach((entry) -> System.out.printf("%-40s %d%n", entry.getKey(), entry.getValue().sum()));
	}

	private static void operation(HttpClient http, String base, String token, boolean keyed) {
		String operation = UUID.randomUUID().toString();
		String key = keyed ? UUID.randomUUID().toString() : null;
		String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"notes_create\","
				+ "\"arguments\":{\"text\":\"" + operation + "\"}}}";
		for (int attempt = 0; attempt < (keyed ? 5 : 1); attempt++) {
			HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/mcp/soak/faulty"))
				.timeout(Duration.ofSeconds(30))
				.header("Authorization", "Bearer " + token)
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body));
			if (key != null) {
				request.header("Idempotency-Key", key);
			}
			String outcome;
			try {
				HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
				Matcher code = CODE.matcher(response.body());
				boolean replayed = response.headers().firstValue("Idempotency-Replayed").isPresent();
				outcome = (keyed ? "keyed " : "unkeyed ") + response.statusCode()
						+ (code.find() ? " " + code.group(1) : "") + (replayed ? " replay" : "");
				tally(outcome);
				if (response.statusCode() == 403 || response.statusCode() == 429) {
					// A refused client backs off instead of spinning.
					sleep(250);
				}
				if (response.statusCode() == 200 || response.statusCode() == 403
						|| (response.statusCode() == 409 && !response.body().contains("idempotency_in_flight"))) {
					return;
				}
			}
			catch (Exception ex) {
				tally((keyed ? "keyed " : "unkeyed ") + "transport " + ex.getClass().getSimpleName());
			}
			sleep(200);
		}
	}

	private static Void revoker(Path revocations, Instant end) throws Exception {
		while (Instant.now().isBefore(end)) {
			sleep(20_000);
			Files.writeString(revocations, "{\"principals\":[{\"human\":\"soak-1\"}]}");
			tally("revocation on");
			sleep(5_000);
			Files.writeString(revocations, "{}");
			tally("revocation off");
		}
		return null;
	}

	private static void tally(String outcome) {
		tallies.computeIfAbsent(outcome, (k) -> new LongAdder()).increment();
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
