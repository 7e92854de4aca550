package io.github.mcpgateway.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.support.RedisServer;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The official TypeScript SDK client ({@code src/test/node/restart-client.mjs}) keeps its
 * session while the packaged gateway in front of server-everything is restarted, as a
 * rolling update replaces a replica: with {@code gateway.session.store: redis} its next
 * call in the same session works, and its server-to-client stream, ended by the shutdown,
 * is open again on the new process (the client retries it every second; with the SDK's
 * default of two retries in 2.5 s, a lone gateway's restart outlasts them and only the
 * stream is lost, never the session). Skipped where {@code node} or {@code npm} is
 * missing.
 */
class TypeScriptRestartIT {

	@RegisterExtension
	static final GatewayProcess gateway = new GatewayProcess("typescript-restart");

	private static final RedisServer redis = RedisServer.start();

	private static NodeInterop node;

	@AfterAll
	static void stopEverything() throws InterruptedException {
		gateway.stopAfter(node);
		redis.close();
	}

	@Test
	void sdkClientKeepsItsSessionAcrossAGatewayRestart() throws Exception {
		node = NodeInterop.installed();
		gateway.startInFrontOf(node.startServerEverything("typescript-restart-everything").port(), 0,
				"--gateway.session.store=redis", "--spring.data.redis.port=" + redis.port());
		String token = TestJwts.jwt().human("alice").team("blue").audience(gateway.url(GatewayProcess.GUARDED)).sign();
		Path ready = Files.createTempFile("restart", ".ready");
		Path go = ready.resolveSibling(ready.getFileName() + ".go");
		Files.delete(ready);
		CompletableFuture<NodeInterop.Finished> client = CompletableFuture.supplyAsync(() -> {
			try {
				// One gateway restarting takes longer than the SDK's default reconnection
				// window (2 retries in 2.5 s); several replicas behind a Service do not
				// need
				// this (docs/operations.md, Running).
				return node.run("typescript-restart-client",
						Map.of("MCP_URL", gateway.url(GatewayProcess.GUARDED), "MCP_TOKEN", token, "READY_FILE",
								ready.toString(), "GO_FILE", go.toString(), "RECONNECT_EVERY_MS", "1000",
								"RECONNECT_MAX_RETRIES", "30"),
						Duration.ofSeconds(90), "restart-client.mjs");
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(ready) || client.isDone());

		long start = System.nanoTime();
		gateway.restart();
		long restartMillis = (System.nanoTime() - start) / 1_000_000;
		Files.writeString(go, "go");
		NodeInterop.Finished finished = client.get();

		JsonNode report = finished.report("TypeScript SDK client across a gateway restart (" + restartMillis + " ms)");
		assertThat(report.get("failures").values()).isEmpty();
		assertThat(report.get("after").asString()).contains("after the restart");
		String session = report.get("sessionId").asString();
		// Each stream is audited when it ends: the first by the stopped process, the
		// reopened one when the client ended its session.
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(gateway.auditLines()
				.stream()
				.filter((line) -> line.contains("\"session_id\":\"" + session + "\"")
						&& line.contains("\"method\":\"GET\"") && line.contains("\"status\":200"))
				.count()).as("GET streams of the session, before and after the restart").isGreaterThanOrEqualTo(2));
		assertThat(gateway.auditLines()).noneMatch((line) -> line.contains("\"error_code\":\"session_not_found\""));
	}

}
