package io.github.mcpgateway.stdio;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The official MCP Java SDK's stdio server ({@link SdkStdioServer}) as a child process:
 * the framing both ways with a real server, started with an empty environment.
 */
class StdioSdkServerTest {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final BlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();

	private final BlockingQueue<StdioEnd> ends = new LinkedBlockingQueue<>();

	private StdioProcess process;

	@AfterEach
	void stop() {
		if (this.process != null) {
			this.process.stop();
		}
	}

	@Test
	void aServerOnTheSdkInitializesListsAndCallsOverTheProcessPipes() throws Exception {
		this.process = StdioProcess.start("sdk", command(), StdioLimits.DEFAULTS, new StdioListener() {
			@Override
			public void onMessage(JsonNode message) {
				StdioSdkServerTest.this.messages.add(message);
			}

			@Override
			public void ended(StdioEnd end) {
				StdioSdkServerTest.this.ends.add(end);
			}
		});

		send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
				+ "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}");
		assertThat(next().at("/result/serverInfo/name").asString()).isEqualTo("sdk-stdio-server");
		send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
		send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
		assertThat(next().at("/result/tools/0/name").asString()).isEqualTo("echo");
		send("{\"jsonrpc\":\"2.0\",\"id\":\"three\",\"method\":\"tools/call\","
				+ "\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"hi\\nthere\"}}}");
		JsonNode called = next();

		assertThat(called.get("id").asString()).isEqualTo("three");
		assertThat(called.at("/result/content/0/text").asString()).isEqualTo("echo: hi\nthere");
		this.process.stop();
		assertThat(this.ends.poll(10, TimeUnit.SECONDS)).extracting(StdioEnd::reason)
			.isEqualTo(StdioEnd.Reason.STOPPED);
		assertThat(this.process.isAlive()).isFalse();
	}

	private static StdioCommand command() {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		return new StdioCommand(List.of(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp",
				System.getProperty("java.class.path"), SdkStdioServer.class.getName()), Path.of("."), Map.of());
	}

	private void send(String message) {
		assertThat(this.process.send(JSON.readTree(message))).isTrue();
	}

	private JsonNode next() throws InterruptedException {
		JsonNode message = this.messages.poll(30, TimeUnit.SECONDS);
		assertThat(message).as("a message within 30 s; ended: %s", this.ends).isNotNull();
		return message;
	}

}
