package io.github.mcpgateway.e2e;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import org.junit.jupiter.api.Test;

import io.github.mcpgateway.e2e.IdempotentToolCalls.Outcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The Java recipe ({@link IdempotentToolCalls}) under the gateway's default request hash,
 * which includes the JSON-RPC id: the key goes where it should, and only a request resent
 * byte for byte, below the SDK, is a retry. Shares the context of the other integration
 * tests.
 */
class JavaSdkIdempotencyRecipeDefaultHashTest extends JavaSdkRecipeTestSupport {

	private static final String SDK_JSON = "/mcp/test/sdk-json";

	private final IdempotentToolCalls calls = new IdempotentToolCalls();

	@Test
	void callToolWhenTheSdkInitializesWithinTheCallThenOnlyTheToolsCallCarriesTheKey() {
		McpSyncClient client = client(this.calls, SDK_JSON);

		Outcome outcome = this.calls.callTool(client,
				CallToolRequest.builder("echo").arguments(Map.of("text", "hi")).build(), 1);

		assertThat(text(outcome.result())).isEqualTo("hi");
		assertThat(this.sent).extracting(Sent::method, Sent::key)
			.containsExactly(tuple("initialize", null), tuple("notifications/initialized", null),
					tuple("tools/call", outcome.key()));
	}

	@Test
	void callToolWhenRepeatedThroughTheSdkThenKeyConflictBecauseTheIdChanged() {
		McpSyncClient client = client(this.calls, SDK_JSON);
		String key = UUID.randomUUID().toString();
		String note = "conflict " + key;
		int executions = sdkJsonServer.tools().executions();
		this.calls.callTool(client, createNote(note), key, 3);

		assertThatExceptionOfType(IdempotentCallException.class)
			.isThrownBy(() -> this.calls.callTool(client, createNote(note), key, 3))
			.satisfies((ex) -> assertThat(ex.code()).isEqualTo("idempotency_key_conflict"));
		assertThat(sdkJsonServer.tools().executions()).isEqualTo(executions + 1);
	}

	@Test
	void toolsCallWhenResentByteForByteWithItsKeyThenReplayed() {
		McpSyncClient client = client(this.calls, SDK_JSON);
		String note = "resent " + UUID.randomUUID();
		int executions = sdkJsonServer.tools().executions();
		Outcome first = this.calls.callTool(client, createNote(note), 1);
		Sent call = sentToolCalls().get(0);

		HttpResponse<String> resent = post(SDK_JSON, validToken(), call.body(), IdempotentToolCalls.HEADER,
				first.key());

		assertThat(resent.statusCode()).isEqualTo(200);
		assertThat(resent.headers().firstValue("Idempotency-Replayed")).hasValue("true");
		assertThat(resent.body()).contains("\"id\":" + jsonId(call.id())).contains(text(first.result()));
		assertThat(sdkJsonServer.tools().executions()).isEqualTo(executions + 1);
	}

	private static String jsonId(Object id) {
		return (id instanceof String text) ? "\"" + text + "\"" : String.valueOf(id);
	}

}
