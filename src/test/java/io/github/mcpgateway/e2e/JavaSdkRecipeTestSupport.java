package io.github.mcpgateway.e2e;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import org.junit.jupiter.api.AfterEach;

import io.github.mcpgateway.e2e.IdempotentToolCalls.Attempt;
import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestUpstream.Reply;

/**
 * What the Java recipe tests share: an SDK client built with {@link IdempotentToolCalls}
 * over a {@link LossyNetwork}, and the record of every message it sent.
 */
abstract class JavaSdkRecipeTestSupport extends GatewayIntegrationTest {

	/** Every JSON-RPC message the client sent, with the key it carried. */
	protected final List<Sent> sent = new CopyOnWriteArrayList<>();

	private final List<McpSyncClient> clients = new CopyOnWriteArrayList<>();

	protected LossyNetwork network;

	@AfterEach
	void closeClients() {
		this.clients.forEach(McpSyncClient::close);
	}

	/** A client of {@code path} through {@code calls}, not initialized yet. */
	protected McpSyncClient client(IdempotentToolCalls calls, String path) {
		HttpClientStreamableHttpTransport transport = calls.transport("http://127.0.0.1:" + this.port, (http) -> {
			this.network = new LossyNetwork(http);
			return this.network;
		})
			.endpoint(path)
			.requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + validToken()))
			// After the recipe's customizer: sees the key it added.
			.addHttpRequestCustomizer((request, method, uri, body, context) -> recordSent(request, body))
			.build();
		McpSyncClient client = calls.client(transport).requestTimeout(Duration.ofSeconds(10)).build();
		this.clients.add(client);
		return client;
	}

	private void recordSent(HttpRequest.Builder request, String body) {
		try {
			String key = request.copy().build().headers().firstValue(IdempotentToolCalls.HEADER).orElse(null);
			McpSchema.JSONRPCMessage message = McpSchema.deserializeJsonRpcMessage(McpJsonDefaults.getMapper(), body);
			if (message instanceof McpSchema.JSONRPCRequest call) {
				this.sent.add(new Sent(call.method(), call.id(), key, body));
			}
			else if (message instanceof McpSchema.JSONRPCNotification notification) {
				this.sent.add(new Sent(notification.method(), null, key, body));
			}
		}
		catch (Exception notJsonRpc) {
			// GET and DELETE have no body
		}
	}

	protected List<Sent> sentToolCalls() {
		return this.sent.stream().filter((s) -> s.method().equals(McpSchema.METHOD_TOOLS_CALL)).toList();
	}

	protected static CallToolRequest createNote(String text) {
		return CallToolRequest.builder("notes_create").arguments(Map.of("text", text)).build();
	}

	protected static String text(CallToolResult result) {
		return ((TextContent) result.content().get(0)).text();
	}

	protected static List<String> summaries(List<Attempt> attempts) {
		return attempts.stream().map(Attempt::summary).toList();
	}

	/**
	 * A stateless MCP server on the test upstream, as far as the SDK client needs one;
	 * {@code toolCall} answers each {@code tools/call}.
	 */
	protected static Reply statelessMcpServer(Reply toolCall) {
		Reply initialized = Replies.jsonResult("{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},"
				+ "\"serverInfo\":{\"name\":\"test-upstream\",\"version\":\"1\"}}");
		return (request, exchange) -> {
			String body = request.bodyText();
			if (!request.method().equals("POST")) {
				Replies.raw(405, null, "").write(request, exchange);
			}
			else if (body.contains("\"method\":\"initialize\"")) {
				initialized.write(request, exchange);
			}
			else if (body.contains("\"method\":\"tools/call\"")) {
				toolCall.write(request, exchange);
			}
			else {
				Replies.raw(202, null, "").write(request, exchange);
			}
		};
	}

	protected static long toolCallsReceivedUpstream() {
		return upstream.received().stream().filter((r) -> r.bodyText().contains("\"method\":\"tools/call\"")).count();
	}

	/** One JSON-RPC message as the client sent it. */
	protected record Sent(String method, Object id, String key, String body) {
	}

}
