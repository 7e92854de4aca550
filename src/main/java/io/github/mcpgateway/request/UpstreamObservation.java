package io.github.mcpgateway.request;

import java.io.IOException;

import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpResponse;

/**
 * How a {@link PipelineObserver} follows one upstream call. The proxy calls it on the
 * request's thread, in this order: {@link #holdsBody()} when it writes the request body,
 * then {@link #send} once, with the request's headers as the upstream will get them, and
 * relays the reply that {@code send} returns.
 *
 * <p>
 * Contract: {@code send} runs {@code call} exactly once and rethrows its failure; it may
 * change the request's headers before the call and return the reply wrapped (to see when
 * it is closed), never changed. A held body reaches the upstream as {@link #body} returns
 * it, written inside {@code call}; any other body is streamed through untouched.
 */
public interface UpstreamObservation {

	/** Observes nothing: the body is streamed, the call is sent as it is. */
	UpstreamObservation NONE = new UpstreamObservation() {
	};

	/**
	 * Whether the proxy holds the request body in memory until {@link #send}, to pass it
	 * through {@link #body}; {@code false} by default.
	 */
	default boolean holdsBody() {
		return false;
	}

	/**
	 * The held body as the upstream receives it; called inside {@link #send}, after the
	 * headers were set. By default the body itself.
	 */
	default byte[] body(HttpRequest request, byte[] held) {
		return held;
	}

	/** Sends the request ({@code call}) inside the observation; see the contract. */
	default ClientHttpResponse send(HttpRequest request, Call call) throws IOException {
		return call.send();
	}

	/**
	 * The upstream call itself: writes a held body, sends the request, reads the reply.
	 */
	@FunctionalInterface
	interface Call {

		ClientHttpResponse send() throws IOException;

	}

}
