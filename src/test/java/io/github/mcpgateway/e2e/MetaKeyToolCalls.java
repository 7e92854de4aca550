package io.github.mcpgateway.e2e;

import java.util.Map;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

/**
 * Client recipe: the gateway's idempotency key in {@code params._meta} with the official
 * MCP Java SDK 2.1.0 client, and the retry loop of docs/idempotency.md. No transport
 * code: the key travels in the message, and the gateway answers every refusal of a keyed
 * call as a JSON-RPC error the SDK raises as {@link McpError}, with {@code data.code},
 * {@code data.status} and, where waiting helps, {@code data.retryAfter} (seconds).
 * <p>
 * The docs show this class from its declaration on, tabs as four spaces
 * ({@code MetaKeyToolCallsDocumentationTest}); {@code JavaSdkMetaKeyIT} runs it against
 * the packaged jar.
 */
public final class MetaKeyToolCalls {

	public static final String KEY = "io.github.mcpgateway/idempotency-key";

	/**
	 * Calls {@code tool} with {@code key}; calls again with the same key when no answer
	 * came, and after {@code data.retryAfter} on {@code idempotency_in_flight} or
	 * {@code rate_limited}, up to {@code attempts} calls. Any other error is the
	 * caller's: {@code idempotency_outcome_unknown} (never retry this key),
	 * {@code idempotency_response_not_replayable}, {@code idempotency_key_conflict}, ...
	 */
	public static CallToolResult callTool(McpSyncClient client, String tool, Map<String, Object> arguments, String key,
			int attempts) throws InterruptedException {
		CallToolRequest call = CallToolRequest.builder().name(tool).arguments(arguments).meta(Map.of(KEY, key)).build();
		for (int attempt = 1;; attempt++) {
			try {
				// A replayed result says so in result.meta().
				return client.callTool(call);
			}
			catch (McpError error) {
				Map<?, ?> data = (error.getJsonRpcError().data() instanceof Map<?, ?> map) ? map : Map.of();
				boolean callAgainLater = "idempotency_in_flight".equals(data.get("code"))
						|| "rate_limited".equals(data.get("code"));
				if (!callAgainLater || attempt >= attempts || !(data.get("retryAfter") instanceof Number seconds)) {
					throw error;
				}
				Thread.sleep(seconds.longValue() * 1000);
			}
			catch (RuntimeException noAnswer) {
				// The tool may have run or not: the gateway knows, so ask again.
				if (attempt >= attempts) {
					throw noAnswer;
				}
			}
		}
	}

	/** The gateway's {@code data.code} of an error, or {@code null}. */
	public static String code(McpError error) {
		return (error.getJsonRpcError().data() instanceof Map<?, ?> data) ? (String) data.get("code") : null;
	}

}
