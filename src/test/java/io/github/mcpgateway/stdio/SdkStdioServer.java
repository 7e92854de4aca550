package io.github.mcpgateway.stdio;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/**
 * A stdio MCP server on the official Java SDK, run as a child process by the tests, with
 * the tools they need ({@link #tool}). Its stdout is the SDK's transport alone; anything
 * else the JVM prints (logging) goes to stderr, as the stdio transport asks.
 */
public final class SdkStdioServer {

	/** The calls of {@code count} this process served: state of the process alone. */
	private static final AtomicInteger CALLS = new AtomicInteger();

	private SdkStdioServer() {
	}

	/**
	 * A tool of one string argument: {@code echo} ("echo: " and the text), {@code env}
	 * (the value of the named variable of the process, "null" when unset), {@code count}
	 * (how many times this process ran it), {@code roots} (asks the client for its roots,
	 * a request of the server's own, and answers the first one's URI), {@code sleep}
	 * (answers after that many milliseconds), {@code exit} (the process ends at once with
	 * that status, without answering).
	 */
	private static McpServerFeatures.SyncToolSpecification tool(String name, String argument,
			BiFunction<McpSyncServerExchange, String, String> call) {
		Tool tool = Tool.builder()
			.name(name)
			.description("The test tool " + name)
			.inputSchema(Map.of("type", "object", "properties", Map.of(argument, Map.of("type", "string")), "required",
					List.of(argument)))
			.build();
		return McpServerFeatures.SyncToolSpecification.builder()
			.tool(tool)
			.callHandler((exchange, request) -> CallToolResult.builder()
				.addTextContent(call.apply(exchange, String.valueOf(request.arguments().get(argument))))
				.isError(false)
				.build())
			.build();
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	public static void main(String[] args) throws InterruptedException {
		PrintStream stdout = System.out;
		System.setOut(System.err);
		StdioServerTransportProvider transport = new StdioServerTransportProvider(McpJsonDefaults.getMapper(),
				System.in, stdout);
		McpServer.sync(transport)
			.serverInfo("sdk-stdio-server", "1.0")
			.capabilities(ServerCapabilities.builder().tools(true).build())
			.tools(tool("echo", "text", (exchange, text) -> "echo: " + text),
					tool("env", "name", (exchange, name) -> String.valueOf(System.getenv(name))),
					tool("count", "text", (exchange, text) -> Integer.toString(CALLS.incrementAndGet())),
					tool("roots", "text", (exchange, text) -> exchange.listRoots().roots().get(0).uri()),
					tool("sleep", "text", (exchange, millis) -> {
						sleep(Long.parseLong(millis));
						return "slept " + millis;
					}), tool("exit", "text", (exchange, status) -> {
						Runtime.getRuntime().halt(Integer.parseInt(status));
						return "unreachable";
					}))
			.build();
		Thread.currentThread().join();
	}

}
