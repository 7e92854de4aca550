package io.github.mcpgateway.stdio;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/**
 * A stdio MCP server on the official Java SDK, run as a child process by the tests: one
 * tool, {@code echo}. Its stdout is the SDK's transport alone; anything else the JVM
 * prints (logging) goes to stderr, as the stdio transport asks.
 */
public final class SdkStdioServer {

	private SdkStdioServer() {
	}

	public static void main(String[] args) throws InterruptedException {
		PrintStream stdout = System.out;
		System.setOut(System.err);
		StdioServerTransportProvider transport = new StdioServerTransportProvider(McpJsonDefaults.getMapper(),
				System.in, stdout);
		Tool echo = Tool.builder()
			.name("echo")
			.description("Echoes its text")
			.inputSchema(Map.of("type", "object", "properties", Map.of("text", Map.of("type", "string")), "required",
					List.of("text")))
			.build();
		McpServer.sync(transport)
			.serverInfo("sdk-stdio-server", "1.0")
			.capabilities(ServerCapabilities.builder().tools(true).build())
			.tools(McpServerFeatures.SyncToolSpecification.builder()
				.tool(echo)
				.callHandler((exchange, request) -> CallToolResult.builder()
					.addTextContent("echo: " + request.arguments().get("text"))
					.isError(false)
					.build())
				.build())
			.build();
		Thread.currentThread().join();
	}

}
