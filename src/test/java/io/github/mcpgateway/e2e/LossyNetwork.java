package io.github.mcpgateway.e2e;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static org.awaitility.Awaitility.await;

/**
 * The network under {@link IdempotentToolCalls} in tests: on demand it fails the next
 * keyed request at the transport, as a client-side timeout would, while the request still
 * reaches the gateway. The failure comes at a point the test chooses, never after a
 * sleep.
 */
final class LossyNetwork extends ForwardingHttpClient {

	/**
	 * When the next keyed request fails: {@link #AFTER_ANSWER}, or once its condition
	 * holds.
	 */
	private final AtomicReference<BooleanSupplier> nextLoss = new AtomicReference<>();

	private static final BooleanSupplier AFTER_ANSWER = () -> true;

	LossyNetwork(HttpClient delegate) {
		super(delegate);
	}

	/**
	 * The next keyed request is sent and completes at the gateway; its whole answer is
	 * read and then lost.
	 */
	void loseNextAnswer() {
		this.nextLoss.set(AFTER_ANSWER);
	}

	/**
	 * The next keyed request is sent; its connection is given up as soon as
	 * {@code delivered} holds, whatever the gateway answers later.
	 */
	void dropNextOnceDelivered(BooleanSupplier delivered) {
		this.nextLoss.set(delivered);
	}

	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler,
			PushPromiseHandler<T> pushPromiseHandler) {
		BooleanSupplier loss = request.headers().firstValue(IdempotentToolCalls.HEADER).isPresent()
				? this.nextLoss.getAndSet(null) : null;
		if (loss == null) {
			return this.delegate.sendAsync(request, handler, pushPromiseHandler);
		}
		CompletableFuture<HttpResponse<String>> real = this.delegate.sendAsync(request,
				HttpResponse.BodyHandlers.ofString());
		CompletableFuture<?> lostAt = (loss == AFTER_ANSWER) ? real
				: CompletableFuture.runAsync(() -> await().atMost(Duration.ofSeconds(5))
					.pollInterval(Duration.ofMillis(10))
					.until(loss::getAsBoolean));
		return lostAt.thenCompose((ignored) -> CompletableFuture
			.failedFuture(new HttpTimeoutException("request timed out (simulated: the answer was lost)")));
	}

}
