package io.github.mcpgateway.revocation;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.mcpgateway.principal.McpPrincipal;

import static org.assertj.core.api.Assertions.assertThat;

/** A platform API over real HTTP as the revocation source. */
class RevocationSyncTest {

	private final HttpServer api = start();

	private volatile int status = 200;

	private volatile String body = "{\"sessions\":[\"s-1\"],\"principals\":[{\"team\":\"red\"}]}";

	private String lastAuthorization;

	@AfterEach
	void stop() {
		this.api.stop(0);
	}

	@Test
	void syncWhenApiAnswersThenListIsLiveAndHeadersAreSent() {
		RevocationSync sync = sync();

		sync.syncNow();

		assertThat(sync.hasSynced()).isTrue();
		assertThat(sync.current().revokesSession("s-1")).isTrue();
		assertThat(sync.current().revokesPrincipal(new McpPrincipal("eve", null, "red"))).isTrue();
		assertThat(sync.current().revokesPrincipal(new McpPrincipal("eve", null, "blue"))).isFalse();
		assertThat(this.lastAuthorization).isEqualTo("Bearer platform-token");
	}

	@Test
	void syncWhenApiFailsOrAnswersGarbageThenLastGoodListStays() {
		RevocationSync sync = sync();
		sync.syncNow();

		for (String garbage : new String[] { "not json", "{\"sessions\":\"s-1\"}", "{\"other\":[]}", "",
				"{\"principals\":[{}]}" }) {
			this.body = garbage;
			sync.syncNow();
			assertThat(sync.current().revokesSession("s-1")).as(garbage).isTrue();
		}
		this.status = 500;
		this.body = "{}";
		sync.syncNow();

		assertThat(sync.current().revokesSession("s-1")).isTrue();
		assertThat(sync.lastError()).isEqualTo("IOException: HTTP status 500");
	}

	@Test
	void syncWhenNeverSucceededThenNotSynced() {
		this.status = 503;
		RevocationSync sync = sync();

		sync.syncNow();

		assertThat(sync.hasSynced()).isFalse();
		assertThat(new RevocationHealthIndicator(sync, Clock.systemUTC()).health().getStatus().getCode())
			.isEqualTo("DOWN");
	}

	private RevocationSync sync() {
		String url = "http://127.0.0.1:" + this.api.getAddress().getPort() + "/revocations";
		return new RevocationSync(
				new RevocationProperties(url, Duration.ofMillis(500), Duration.ofSeconds(2),
						Map.of("Authorization", "Bearer platform-token")),
				Clock.systemUTC(), new SimpleMeterRegistry());
	}

	private HttpServer start() {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
			server.createContext("/revocations", (exchange) -> {
				this.lastAuthorization = exchange.getRequestHeaders().getFirst("Authorization");
				byte[] bytes = this.body.getBytes(StandardCharsets.UTF_8);
				exchange.sendResponseHeaders(this.status, (bytes.length == 0) ? -1 : bytes.length);
				if (bytes.length > 0) {
					try (OutputStream out = exchange.getResponseBody()) {
						out.write(bytes);
					}
				}
				exchange.close();
			});
			server.start();
			return server;
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
