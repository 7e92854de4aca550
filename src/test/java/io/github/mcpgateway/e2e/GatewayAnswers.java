package io.github.mcpgateway.e2e;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodySubscriber;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * Part of the Java recipe ({@link IdempotentToolCalls}): reads the gateway's answers to
 * keyed requests under the MCP Java SDK, which keeps {@code Retry-After},
 * {@code Idempotency-Replayed} and whether any answer arrived to itself. A call expects
 * an answer under its key; the HTTP client {@link #reader(HttpClient) reader} fills it in
 * from the request's {@code Idempotency-Key} header, on whatever thread the SDK sends.
 */
final class GatewayAnswers {

	static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);

	/** Largest error body read for its {@code error.data.code}. */
	private static final int MAX_ERROR_BODY = 64 * 1024;

	/** The answer to the current attempt of each call in progress, by key. */
	private final Map<String, Answer> expected = new ConcurrentHashMap<>();

	/** A new, empty answer for the next attempt with {@code key}. */
	Answer expect(String key) {
		Answer answer = new Answer();
		if (this.expected.putIfAbsent(key, answer) != null) {
			throw new IllegalStateException("This key is already used by a call in progress");
		}
		return answer;
	}

	void forget(String key, Answer answer) {
		this.expected.remove(key, answer);
	}

	/** {@code client}, with the answers to keyed requests read on their way up. */
	HttpClient reader(HttpClient client) {
		return new Reader(client);
	}

	/** {@code error.data.code} of a JSON-RPC error body, or {@code null}. */
	private static String dataCode(byte[] body) {
		try {
			if (McpSchema.deserializeJsonRpcMessage(McpJsonDefaults.getMapper(),
					new String(body, StandardCharsets.UTF_8)) instanceof McpSchema.JSONRPCResponse response
					&& response.error() != null && response.error().data() instanceof Map<?, ?> data
					&& data.get("code") instanceof String code) {
				return code;
			}
		}
		catch (Exception notJsonRpc) {
			// an upstream's own error page
		}
		return null;
	}

	private static Duration retryAfter(HttpResponse.ResponseInfo info) {
		return info.headers()
			.firstValue("Retry-After")
			.filter((value) -> value.matches("\\d{1,4}"))
			.map((value) -> Duration.ofSeconds(Long.parseLong(value)))
			.orElse(DEFAULT_RETRY_AFTER);
	}

	/** What the gateway answered to one attempt, as far as it got. */
	static final class Answer {

		volatile int status;

		volatile boolean replayed;

		volatile boolean complete;

		volatile String code;

		volatile Duration retryAfter = DEFAULT_RETRY_AFTER;

	}

	/** Reads the gateway's answers to keyed requests below the SDK. */
	private final class Reader extends ForwardingHttpClient {

		Reader(HttpClient delegate) {
			super(delegate);
		}

		@Override
		public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler,
				PushPromiseHandler<T> pushPromiseHandler) {
			Answer answer = request.headers()
				.firstValue(IdempotentToolCalls.HEADER)
				.map(GatewayAnswers.this.expected::get)
				.orElse(null);
			if (answer == null) {
				return this.delegate.sendAsync(request, handler, pushPromiseHandler);
			}
			return this.delegate.sendAsync(request, (info) -> {
				answer.status = info.statusCode();
				answer.replayed = info.headers()
					.firstValue("Idempotency-Replayed")
					.filter("true"::equalsIgnoreCase)
					.isPresent();
				answer.retryAfter = retryAfter(info);
				return new Observed<>(handler.apply(info), answer, info.statusCode() >= 400);
			}, pushPromiseHandler);
		}

	}

	/** Passes a body on; records when it ended, and the code of an error body. */
	private static final class Observed<T> implements BodySubscriber<T> {

		private final BodySubscriber<T> target;

		private final Answer answer;

		private final ByteArrayOutputStream errorBody;

		Observed(BodySubscriber<T> target, Answer answer, boolean error) {
			this.target = target;
			this.answer = answer;
			this.errorBody = error ? new ByteArrayOutputStream() : null;
		}

		@Override
		public void onSubscribe(Flow.Subscription subscription) {
			this.target.onSubscribe(subscription);
		}

		@Override
		public void onNext(List<ByteBuffer> items) {
			if (this.errorBody != null) {
				for (ByteBuffer item : items) {
					ByteBuffer copy = item.duplicate();
					int length = Math.min(copy.remaining(), MAX_ERROR_BODY - this.errorBody.size());
					if (length > 0) {
						byte[] bytes = new byte[length];
						copy.get(bytes);
						this.errorBody.write(bytes, 0, length);
					}
				}
			}
			this.target.onNext(items);
		}

		@Override
		public void onError(Throwable throwable) {
			this.target.onError(throwable);
		}

		@Override
		public void onComplete() {
			// Before the SDK sees the end: it fails the call from there.
			if (this.errorBody != null) {
				this.answer.code = dataCode(this.errorBody.toByteArray());
			}
			this.answer.complete = true;
			this.target.onComplete();
		}

		@Override
		public CompletionStage<T> getBody() {
			return this.target.getBody();
		}

	}

}
