package io.github.mcpgateway.tracing;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;

import io.opentelemetry.api.trace.Span;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpResponse;

/**
 * The upstream's reply, unchanged, that ends its {@link ClientSpan} when it is closed:
 * the proxy closes it once the body was relayed to the end or abandoned. The span ends
 * once, however often {@link #close} is called.
 */
final class ClientSpanResponse implements ClientHttpResponse {

	private final ClientHttpResponse response;

	private final Span span;

	private final AtomicBoolean ended = new AtomicBoolean();

	ClientSpanResponse(ClientHttpResponse response, Span span) {
		this.response = response;
		this.span = span;
	}

	@Override
	public HttpStatusCode getStatusCode() throws IOException {
		return this.response.getStatusCode();
	}

	@Override
	public String getStatusText() throws IOException {
		return this.response.getStatusText();
	}

	@Override
	public HttpHeaders getHeaders() {
		return this.response.getHeaders();
	}

	@Override
	public InputStream getBody() throws IOException {
		return this.response.getBody();
	}

	@Override
	public void close() {
		try {
			this.response.close();
		}
		finally {
			if (this.ended.compareAndSet(false, true)) {
				this.span.end();
			}
		}
	}

}
