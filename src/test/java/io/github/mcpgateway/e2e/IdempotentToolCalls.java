package io.github.mcpgateway.e2e;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

/**
 * Client recipe: the gateway's {@code Idempotency-Key} (docs/idempotency.md) with the
 * official MCP Java SDK 2.1.0 client. Needs the gateway option
 * {@code gateway.idempotency.request-hash=without-jsonrpc-id}: the SDK gives every
 * request a new JSON-RPC id, so a retry matches the first call only when the request hash
 * leaves the id out.
 * <p>
 * Design notes:
 * <ul>
 * <li>The key goes on a POST whose body is a JSON-RPC {@code tools/call} request, and on
 * nothing else: the gateway answers {@code 400 idempotency_unsupported_request} to a key
 * on {@code initialize} or a notification. The SDK's per-request hook,
 * {@code McpSyncHttpClientRequestCustomizer}, sees method, URI and body.</li>
 * <li>The hook may run on a Reactor thread rather than the caller's, so it does not read
 * the {@link ThreadLocal} in which {@link #callTool} keeps the key: the key travels in
 * the {@code McpTransportContext}, which {@link McpSyncClient} takes from its
 * {@code transportContextProvider} on the calling thread. (An application that has its
 * own provider merges the two.)</li>
 * <li>The SDK turns a gateway {@code 409} into an {@code McpTransportException} whose
 * message embeds the body ({@code "Received unexpected status code: 409, response body:
 * ..."}), and exposes neither {@code Retry-After} nor {@code Idempotency-Replayed}, nor
 * whether any answer arrived at all. So the recipe also wraps the transport's
 * {@link HttpClient} and reads the gateway's answers to keyed requests itself, correlated
 * by key.</li>
 * <li>{@link #callTool} keeps one key across its attempts. It retries when no complete
 * HTTP answer arrived (the request may or may not have run: the gateway knows) and on
 * {@code 409 idempotency_in_flight} after {@code Retry-After}. Any other HTTP error ends
 * it with an {@link IdempotentCallException} carrying {@code error.data.code}: a
 * {@code 409 idempotency_outcome_unknown} must never be retried with the same key.</li>
 * </ul>
 */
public final class IdempotentToolCalls {

	/** The request header the gateway reads. */
	public static final String HEADER = "Idempotency-Key";

	private static final String CONTEXT_KEY = "io.github.mcpgateway.idempotency-key";

	/** The key of the call in progress on the calling thread. */
	private static final ThreadLocal<String> currentKey = new ThreadLocal<>();

	private final GatewayAnswers answers = new GatewayAnswers();

	private final Consumer<Attempt> attemptListener;

	public IdempotentToolCalls() {
		this((attempt) -> {
		});
	}

	/** With a listener told about every attempt, for logs or metrics. */
	public IdempotentToolCalls(Consumer<Attempt> attemptListener) {
		this.attemptListener = attemptListener;
	}

	/**
	 * A Streamable HTTP transport builder for {@code baseUri} that keys
	 * {@code tools/call} requests and reads the gateway's answers.
	 * @param network wraps the HTTP client under the recipe
	 * ({@code UnaryOperator.identity()} outside tests)
	 */
	public HttpClientStreamableHttpTransport.Builder transport(String baseUri, UnaryOperator<HttpClient> network) {
		HttpClient.Builder http = ForwardingHttpClient.builder(
				HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1),
				(client) -> this.answers.reader(network.apply(client)));
		return HttpClientStreamableHttpTransport.builder(baseUri)
			.clientBuilder(http)
			.addHttpRequestCustomizer(IdempotentToolCalls::addKeyToToolCalls);
	}

	/** A client builder that hands the caller's key to the transport. */
	public McpClient.SyncSpec client(McpClientTransport transport) {
		return McpClient.sync(transport).transportContextProvider(IdempotentToolCalls::transportContext);
	}

	/** {@link #callTool(McpSyncClient, CallToolRequest, String, int)} with a new key. */
	public Outcome callTool(McpSyncClient client, CallToolRequest request, int maxAttempts) {
		return callTool(client, request, UUID.randomUUID().toString(), maxAttempts);
	}

	/**
	 * Calls a tool with {@code key}, retrying with the same key up to {@code maxAttempts}
	 * times in all. A tool result with {@code isError: true} is a result, not a failure.
	 * @throws IdempotentCallException when the gateway or the upstream refused or failed
	 * the call, or no attempt got an answer
	 */
	public Outcome callTool(McpSyncClient client, CallToolRequest request, String key, int maxAttempts) {
		if (!key.matches("[\\x21-\\x7E]{1,255}")) {
			throw new IllegalArgumentException("An Idempotency-Key is 1 to 255 visible ASCII characters");
		}
		if (maxAttempts < 1) {
			throw new IllegalArgumentException("maxAttempts must be at least 1");
		}
		String outerKey = currentKey.get();
		currentKey.set(key);
		List<Attempt> attempts = new ArrayList<>();
		try {
			while (true) {
				GatewayAnswers.Answer answer = this.answers.expect(key);
				try {
					CallToolResult result = client.callTool(request);
					attempts.add(attempt(attempts.size() + 1, answer, null));
					return new Outcome(result, key, List.copyOf(attempts));
				}
				catch (RuntimeException ex) {
					attempts.add(attempt(attempts.size() + 1, answer, ex));
					boolean noAnswer = answer.status == 0 || (answer.status < 300 && !answer.complete);
					boolean inFlight = answer.status == 409 && "idempotency_in_flight".equals(answer.code);
					if (attempts.size() >= maxAttempts || !(noAnswer || inFlight)) {
						throw new IdempotentCallException(request.name(), key, answer.status, answer.code,
								List.copyOf(attempts), ex);
					}
					if (inFlight) {
						pause(answer.retryAfter);
					}
				}
				finally {
					this.answers.forget(key, answer);
				}
			}
		}
		finally {
			if (outerKey != null) {
				currentKey.set(outerKey);
			}
			else {
				currentKey.remove();
			}
		}
	}

	private Attempt attempt(int number, GatewayAnswers.Answer answer, RuntimeException failure) {
		Attempt attempt = new Attempt(number, answer.status, answer.code, answer.replayed, failure);
		this.attemptListener.accept(attempt);
		return attempt;
	}

	private static McpTransportContext transportContext() {
		String key = currentKey.get();
		return (key != null) ? McpTransportContext.create(Map.of(CONTEXT_KEY, key)) : McpTransportContext.EMPTY;
	}

	private static void addKeyToToolCalls(HttpRequest.Builder request, String method, URI uri, String body,
			McpTransportContext context) {
		if (context.get(CONTEXT_KEY) instanceof String key && "POST".equals(method) && isToolCall(body)) {
			request.setHeader(HEADER, key);
		}
	}

	static boolean isToolCall(String body) {
		try {
			return body != null
					&& McpSchema.deserializeJsonRpcMessage(McpJsonDefaults.getMapper(),
							body) instanceof McpSchema.JSONRPCRequest call
					&& McpSchema.METHOD_TOOLS_CALL.equals(call.method());
		}
		catch (Exception notOneRequest) {
			return false;
		}
	}

	private static void pause(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting to retry", ex);
		}
	}

	/**
	 * One attempt: the HTTP status (0: no answer), the gateway's code, whether it was a
	 * replay.
	 */
	public record Attempt(int number, int status, String code, boolean replayed, Throwable failure) {

		/**
		 * For example {@code 200}, {@code 200 replayed},
		 * {@code 409 idempotency_in_flight}, {@code no answer}.
		 */
		public String summary() {
			if (this.status == 0) {
				return "no answer";
			}
			return this.status + (this.replayed ? " replayed" : "") + ((this.code != null) ? " " + this.code : "");
		}

	}

	/** A tool result, the key it was called with and the attempts it took. */
	public record Outcome(CallToolResult result, String key, List<Attempt> attempts) {

		/**
		 * Whether the result is the gateway's stored reply of an earlier attempt or call.
		 */
		public boolean replayed() {
			return this.attempts.get(this.attempts.size() - 1).replayed();
		}

	}

}
