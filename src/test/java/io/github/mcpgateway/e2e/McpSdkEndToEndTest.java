package io.github.mcpgateway.e2e;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.mcpgateway.support.GatewayIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The official MCP Java SDK on both sides: SDK client, then the gateway, then an SDK
 * server that answers with event streams ({@code sdk-stream}) or with JSON
 * ({@code sdk-json}).
 */
class McpSdkEndToEndTest extends GatewayIntegrationTest {

	@ParameterizedTest
	@ValueSource(strings = { "/mcp/test/sdk-stream", "/mcp/test/sdk-json" })
	void sdkClientInitializesListsAndCallsToolsThroughTheGateway(String path) {
		int executionsBefore = executions(path);
		try (McpSyncClient client = client(path)) {
			assertThat(client.initialize().serverInfo().name()).isEqualTo("mcp-gateway-demo");

			assertThat(client.listTools().tools()).extracting(Tool::name)
				.containsExactlyInAnyOrder("echo", "notes_create", "notes_list");

			CallToolResult result = client.callTool(new CallToolRequest("echo", Map.of("text", "hello")));
			assertThat(result.content()).singleElement()
				.isInstanceOfSatisfying(TextContent.class, (text) -> assertThat(text.text()).isEqualTo("hello"));
			assertThat(executions(path)).isEqualTo(executionsBefore + 1);

			// tool_not_granted, a JSON-RPC error with HTTP 200 (the default): the SDK
			// raises it
			// as a protocol error, data.code included.
			assertThatThrownBy(() -> client.callTool(new CallToolRequest("admin_reset", Map.of())))
				.isInstanceOfSatisfying(McpError.class, (error) -> {
					assertThat(error.getJsonRpcError().code()).isEqualTo(-32002);
					assertThat(error.getJsonRpcError().data()).asString()
						.contains("code=tool_not_granted")
						.contains("status=403");
				});
			assertThat(executions(path)).isEqualTo(executionsBefore + 1);
		}
	}

	private McpSyncClient client(String path) {
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder("http://127.0.0.1:" + this.port)
			.endpoint(path)
			.requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + validToken()))
			.build();
		return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(10)).build();
	}

	private static int executions(String path) {
		return (path.endsWith("sdk-stream") ? sdkStreamServer : sdkJsonServer).tools().executions();
	}

}
