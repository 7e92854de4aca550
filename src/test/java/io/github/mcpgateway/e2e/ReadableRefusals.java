package io.github.mcpgateway.e2e;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import javax.net.ssl.SSLSession;

/**
 * Client recipe for the MCP Java SDK: the gateway's refusals as protocol errors, whatever
 * {@code gateway.request.refusal-status} and {@code gateway.idempotency.refusal-status}
 * say (docs/errors.md, "HTTP status"). With an HTTP error status the SDK raises a
 * transport exception without the body; this client hands the SDK such an answer (a
 * JSON-RPC error body, marked {@code Cache-Control: no-store} as every gateway error is)
 * with status 200, so that the SDK raises its {@code McpError} with the JSON-RPC code and
 * data. 401 and 404 are left as they are: the transport acts on them.
 *
 * <pre>
 * HttpClientStreamableHttpTransport.builder(baseUri)
 *     .clientBuilder(ForwardingHttpClient.builder(HttpClient.newBuilder(), ReadableRefusals::new))
 * </pre>
 */
final class ReadableRefusals extends ForwardingHttpClient {

	ReadableRefusals(HttpClient delegate) {
		super(delegate);
	}

	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler,
			PushPromiseHandler<T> pushPromiseHandler) {
		return this.delegate
			.sendAsync(request, (info) -> handler.apply(isRefusal(info) ? new Accepted(info) : info),
					pushPromiseHandler)
			.thenApply((response) -> isRefusal(response) ? new AcceptedResponse<>(response) : response);
	}

	/** A JSON-RPC error the gateway answered with an HTTP error status. */
	static boolean isRefusal(HttpResponse.ResponseInfo info) {
		return isRefusal(info.statusCode(), info.headers());
	}

	static boolean isRefusal(HttpResponse<?> response) {
		return isRefusal(response.statusCode(), response.headers());
	}

	private static boolean isRefusal(int status, HttpHeaders headers) {
		return status >= 400 && status != 401 && status != 404
				&& headers.firstValue("Content-Type").orElse("").startsWith("application/json")
				&& headers.firstValue("Cache-Control").orElse("").contains("no-store");
	}

	/** The answer, as an HTTP 200 carrying the same body. */
	private record Accepted(HttpResponse.ResponseInfo info) implements HttpResponse.ResponseInfo {

		@Override
		public int statusCode() {
			return 200;
		}

		@Override
		public HttpHeaders headers() {
			return this.info.headers();
		}

		@Override
		public HttpClient.Version version() {
			return this.info.version();
		}

	}

	/** The response, as an HTTP 200: the SDK reads the status of both. */
	private record AcceptedResponse<T>(HttpResponse<T> response) implements HttpResponse<T> {

		@Override
		public int statusCode() {
			return 200;
		}

		@Override
		public HttpRequest request() {
			return this.response.request();
		}

		@Override
		public Optional<HttpResponse<T>> previousResponse() {
			return this.response.previousResponse();
		}

		@Override
		public HttpHeaders headers() {
			return this.response.headers();
		}

		@Override
		public T body() {
			return this.response.body();
		}

		@Override
		public Optional<SSLSession> sslSession() {
			return this.response.sslSession();
		}

		@Override
		public URI uri() {
			return this.response.uri();
		}

		@Override
		public HttpClient.Version version() {
			return this.response.version();
		}

	}

}
