package io.github.mcpgateway.admission;

import java.io.IOException;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Runs the rest of the chain holding a place a limiter gave, and gives it back when the
 * request is done: when the chain returns, or, for a request that went asynchronous, when
 * its asynchronous processing ends.
 */
final class Held {

	private Held() {
	}

	static void run(InFlightLimiter limiter, String key, HttpServletRequest request, HttpServletResponse response,
			FilterChain chain) throws IOException, ServletException {
		boolean async = false;
		try {
			chain.doFilter(request, response);
			if (request.isAsyncStarted()) {
				request.getAsyncContext().addListener(new Release(limiter, key));
				async = true;
			}
		}
		finally {
			if (!async) {
				limiter.release(key);
			}
		}
	}

	private record Release(InFlightLimiter limiter, String key) implements AsyncListener {

		@Override
		public void onComplete(AsyncEvent event) {
			this.limiter.release(this.key);
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
