package io.github.mcpgateway.e2e;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.support.StatelessUpstream;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 2026-07-28 call whose upstream stays silent past {@code silent-reply-stream-after}
 * (ADR 0024), as the TypeScript SDK v2 client hands it to an application
 * ({@code silent-reply-client.mjs}), through the packaged jar on its defaults, in front
 * of {@link StatelessUpstream}: the slow reply arrives as an event stream and the
 * application gets its result; an upstream 400 with a JSON-RPC error, an upstream 500
 * with a text body and a connection the upstream drops each reach it as a protocol error
 * with a code it can read; a fast reply keeps its JSON form. Skipped where {@code node}
 * or {@code npm} is missing.
 */
class SilentReplySdkIT {

	private static final String PATH = "/mcp/test/silent";

	@RegisterExtension
	static final GatewayProcess gateway = new GatewayProcess("silent-reply");

	private static final StatelessUpstream upstream = StatelessUpstream.start();

	private static NodeInterop node;

	@BeforeAll
	static void startTheGateway() throws Exception {
		node = NodeInterop.installed();
		gateway.alsoServers("""
				  - namespace: test
				    name: silent
				    uid: uid-silent
				    upstream: %s
				    path: %s
				    grants:
				      - tools: [silent]
				""".formatted(upstream.url(), PATH));
		gateway.startInFrontOf(NodeInterop.freePort());
	}

	@AfterAll
	static void stopEverything() throws InterruptedException, IOException {
		gateway.stopAfter(node);
		upstream.close();
	}

	@Test
	void typeScriptSdkV2ReadsEverySilentReplyAsAResultOrAProtocolError() throws Exception {
		String token = TestJwts.jwt().human("alice").team("blue").audience(gateway.url(PATH)).sign();
		NodeInterop.Finished run = node.run("silent-reply-v2", Map.of("MCP_URL", gateway.url(PATH), "MCP_TOKEN", token),
				Duration.ofSeconds(90), "silent-reply-client.mjs");
		JsonNode report = run.report("TypeScript SDK v2, silent 2026-07-28 replies through the gateway");
		JsonNode calls = report.get("calls");

		assertThat(report.get("failures").values()).isEmpty();
		assertThat(report.get("protocolVersion").asString()).isEqualTo("2026-07-28");
		assertThat(calls.at("/answered/contentType").asString()).startsWith("text/event-stream");
		assertThat(calls.at("/answered/outcome/result").asString()).isEqualTo("done:\nsilent");
		assertThat(calls.at("/jsonRpcErrorWith400/contentType").asString()).startsWith("text/event-stream");
		assertThat(calls.at("/jsonRpcErrorWith400/outcome/rpcCode").asInt()).isEqualTo(-32602);
		assertThat(calls.at("/textWith500/outcome/rpcCode").asInt()).isEqualTo(-32005);
		assertThat(calls.at("/textWith500/outcome/dataCode").asString()).isEqualTo("upstream_http_error");
		assertThat(calls.at("/textWith500/outcome/upstreamStatus").asString()).isEqualTo("500");
		assertThat(calls.at("/dropped/outcome/dataCode").asString()).isEqualTo("upstream_failed");
		assertThat(calls.at("/fastAnswered/contentType").asString()).startsWith("application/json");
		assertThat(calls.at("/fastAnswered/outcome/result").asString()).isEqualTo("done:\nsilent");
		assertThat(calls.at("/fastTextWith500/status").asInt()).isEqualTo(500);
		assertThat(upstream.runs("silent")).as("each call ran once").isEqualTo(6);
	}

}
