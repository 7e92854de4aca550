package io.github.mcpgateway.admission;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * A place a limiter gave one request: held while the rest of the chain runs and given
 * back exactly once, when the chain returns, or, for a request that went asynchronous,
 * when its asynchronous processing ends, or earlier by {@link #release()} (the address
 * cap's place, handed over once the request holds a place of its human).
 */
final class Held {

	private final InFlightLimiter limiter;

	private final String key;

	private final AtomicBoolean released = new AtomicBoolean();

	private Held(InFlightLimiter limiter, String key) {
		this.limiter = limiter;
		this.key = key;
	}

	/**
	 * Runs the rest of the chain holding the place {@code limiter} gave {@code key};
	 * {@code request} carries it under {@code attribute} (when not {@code null}) for a
	 * later filter to give back early.
	 */
	static void run(InFlightLimiter limiter, String key, String attribute, HttpServletRequest request,
			HttpServletResponse response, FilterChain chain) throws IOException, ServletException {
		Held held = new Held(limiter, key);
		request.setAttribute(attribute, held);
		boolean async = false;
		try {
			chain.doFilter(request, response);
			if (request.isAsyncStarted()) {
				request.getAsyncContext().addListener(new Release(held));
				async = true;
			}
		}
		finally {
			if (!async) {
				held.release();
			}
		}
	}

	/** Gives the place back; any later call does nothing. */
	void release() {
		if (this.released.compareAndSet(false, true)) {
			this.limiter.release(this.key);
		}
	}

	private record Release(Held held) implements AsyncListener {

		@Override
		public void onComplete(AsyncEvent event) {
			this.held.release();
		}

		@Override
		public void onTimeout(AsyncEvent event) {
		}

		@Override
		public void onError(AsyncEvent event) {
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
		}

	}

}
