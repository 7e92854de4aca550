package io.github.mcpgateway.e2e;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.function.UnaryOperator;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * An {@link HttpClient} that hands everything to another one; a subclass overrides
 * {@link #sendAsync(HttpRequest, BodyHandler, PushPromiseHandler)} to watch or disturb
 * the exchanges. The MCP Java SDK's {@code HttpClientStreamableHttpTransport} sends every
 * request with {@code sendAsync}, and accepts a client only through
 * {@code clientBuilder(HttpClient.Builder)}:
 * {@link #builder(HttpClient.Builder, UnaryOperator)} is that builder.
 */
abstract class ForwardingHttpClient extends HttpClient {

	protected final HttpClient delegate;

	protected ForwardingHttpClient(HttpClient delegate) {
		this.delegate = delegate;
	}

	/**
	 * A builder that configures {@code base} and wraps the client it builds with
	 * {@code wrap}.
	 */
	static HttpClient.Builder builder(HttpClient.Builder base, UnaryOperator<HttpClient> wrap) {
		return new WrappingBuilder(base, wrap);
	}

	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler,
			PushPromiseHandler<T> pushPromiseHandler) {
		return this.delegate.sendAsync(request, handler, pushPromiseHandler);
	}

	@Override
	public final <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler) {
		return sendAsync(request, handler, null);
	}

	@Override
	public final <T> HttpResponse<T> send(HttpRequest request, BodyHandler<T> handler)
			throws IOException, InterruptedException {
		try {
			return sendAsync(request, handler).get();
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof IOException io) {
				throw io;
			}
			throw new IOException(ex.getCause());
		}
	}

	@Override
	public Optional<CookieHandler> cookieHandler() {
		return this.delegate.cookieHandler();
	}

	@Override
	public Optional<Duration> connectTimeout() {
		return this.delegate.connectTimeout();
	}

	@Override
	public Redirect followRedirects() {
		return this.delegate.followRedirects();
	}

	@Override
	public Optional<ProxySelector> proxy() {
		return this.delegate.proxy();
	}

	@Override
	public SSLContext sslContext() {
		return this.delegate.sslContext();
	}

	@Override
	public SSLParameters sslParameters() {
		return this.delegate.sslParameters();
	}

	@Override
	public Optional<Authenticator> authenticator() {
		return this.delegate.authenticator();
	}

	@Override
	public Version version() {
		return this.delegate.version();
	}

	@Override
	public Optional<Executor> executor() {
		return this.delegate.executor();
	}

	private record WrappingBuilder(HttpClient.Builder base,
			UnaryOperator<HttpClient> wrap) implements HttpClient.Builder {

		@Override
		public HttpClient.Builder cookieHandler(CookieHandler cookieHandler) {
			this.base.cookieHandler(cookieHandler);
			return this;
		}

		@Override
		public HttpClient.Builder connectTimeout(Duration duration) {
			this.base.connectTimeout(duration);
			return this;
		}

		@Override
		public HttpClient.Builder sslContext(SSLContext sslContext) {
			this.base.sslContext(sslContext);
			return this;
		}

		@Override
		public HttpClient.Builder sslParameters(SSLParameters sslParameters) {
			this.base.sslParameters(sslParameters);
			return this;
		}

		@Override
		public HttpClient.Builder executor(Executor executor) {
			this.base.executor(executor);
			return this;
		}

		@Override
		public HttpClient.Builder followRedirects(Redirect policy) {
			this.base.followRedirects(policy);
			return this;
		}

		@Override
		public HttpClient.Builder version(Version version) {
			this.base.version(version);
			return this;
		}

		@Override
		public HttpClient.Builder priority(int priority) {
			this.base.priority(priority);
			return this;
		}

		@Override
		public HttpClient.Builder proxy(ProxySelector proxySelector) {
			this.base.proxy(proxySelector);
			return this;
		}

		@Override
		public HttpClient.Builder authenticator(Authenticator authenticator) {
			this.base.authenticator(authenticator);
			return this;
		}

		@Override
		public HttpClient build() {
			return this.wrap.apply(this.base.build());
		}

	}

}
