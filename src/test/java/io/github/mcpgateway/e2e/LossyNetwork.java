package io.github.mcpgateway.e2e;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import static org.awaitility.Awaitility.await;

/**
 * The network under an SDK client in tests: on demand it fails the next keyed request at
 * the transport, as a client-side timeout would, while the request still reaches the
 * gateway. The failure comes at a point the test chooses, never after a sleep. A request
 * is keyed when it carries the {@code Idempotency-Key} header
 * ({@link IdempotentToolCalls}) or, with {@link #carryingInBody(String)}, when its body
 * holds a text (the {@code _meta} key of {@link MetaKeyToolCalls}).
 */
final class LossyNetwork extends ForwardingHttpClient {

	/**
	 * When the next keyed request fails: {@link #AFTER_ANSWER}, or once its condition
	 * holds.
	 */
	private final AtomicReference<BooleanSupplier> nextLoss = new AtomicReference<>();

	private static final BooleanSupplier AFTER_ANSWER = () -> true;

	private final Predicate<HttpRequest> keyed;

	LossyNetwork(HttpClient delegate) {
		this(delegate, (request) -> request.headers().firstValue(IdempotentToolCalls.HEADER).isPresent());
	}

	private LossyNetwork(HttpClient delegate, Predicate<HttpRequest> keyed) {
		super(delegate);
		this.keyed = keyed;
	}

	/** A network whose keyed requests are those whose body contains {@code text}. */
	static LossyNetwork carryingInBody(HttpClient delegate, String text) {
		return new LossyNetwork(delegate, (request) -> bodyOf(request).contains(text));
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
		BooleanSupplier loss = (this.nextLoss.get() != null && this.keyed.test(request)) ? this.nextLoss.getAndSet(null)
				: null;
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

	/**
	 * The body of a request, read from its publisher (the JDK's publishers, such as
	 * {@code ofString}, publish the same bytes to every subscriber).
	 */
	private static String bodyOf(HttpRequest request) {
		HttpResponse.BodySubscriber<String> body = HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8);
		request.bodyPublisher().ifPresentOrElse((publisher) -> publisher.subscribe(new Flow.Subscriber<ByteBuffer>() {

			@Override
			public void onSubscribe(Flow.Subscription subscription) {
				body.onSubscribe(subscription);
			}

			@Override
			public void onNext(ByteBuffer item) {
				body.onNext(List.of(item));
			}

			@Override
			public void onError(Throwable throwable) {
				body.onError(throwable);
			}

			@Override
			public void onComplete() {
				body.onComplete();
			}

		}), body::onComplete);
		return body.getBody().toCompletableFuture().join();
	}

}
