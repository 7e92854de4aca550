package io.github.mcpgateway.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.AbstractBufferingClientHttpRequest;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;

import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.stdio.StdioRequest;
import io.github.mcpgateway.stdio.StdioResponse;
import io.github.mcpgateway.stdio.StdioTransport;
import io.github.mcpgateway.transport.McpHeaders;

/**
 * The proxy's request factory: a request for a stdio server (ADR 0023) goes to the
 * {@link StdioTransport} in this process, any other to the HTTP client. The rest of the
 * proxy (headers, the streaming of replies, the abort of a call, tracing) cannot tell the
 * two apart.
 */
final class StdioRequestFactory implements ClientHttpRequestFactory {

	private final ClientHttpRequestFactory http;

	private final StdioTransport stdio;

	StdioRequestFactory(ClientHttpRequestFactory http, StdioTransport stdio) {
		this.http = http;
		this.stdio = stdio;
	}

	@Override
	public ClientHttpRequest createRequest(URI uri, HttpMethod httpMethod) throws IOException {
		McpRequestContext context = ProxiedRequest.context();
		if (context != null && context.server().runsStdio()) {
			return new StdioClientRequest(uri, httpMethod, context);
		}
		if ("stdio".equals(uri.getScheme())) {
			// Only a request the pipeline routed may reach a stdio server.
			throw new IOException("a stdio server is reached only through the gateway's pipeline");
		}
		return this.http.createRequest(uri, httpMethod);
	}

	private final class StdioClientRequest extends AbstractBufferingClientHttpRequest {

		private final URI uri;

		private final HttpMethod method;

		private final McpRequestContext context;

		StdioClientRequest(URI uri, HttpMethod method, McpRequestContext context) {
			this.uri = uri;
			this.method = method;
			this.context = context;
		}

		@Override
		public HttpMethod getMethod() {
			return this.method;
		}

		@Override
		public URI getURI() {
			return this.uri;
		}

		@Override
		protected ClientHttpResponse executeInternal(HttpHeaders headers, byte[] body) throws IOException {
			McpPrincipal principal = this.context.principal();
			StdioRequest request = new StdioRequest(this.context.server(),
					(principal != null) ? principal.human() : null, this.method.name(),
					headers.getFirst(McpHeaders.SESSION_ID), headers.getFirst(McpHeaders.PROTOCOL_VERSION), body,
					this.context.upstream()::call);
			return new StdioClientResponse(StdioRequestFactory.this.stdio.exchange(request));
		}

	}

	private static final class StdioClientResponse implements ClientHttpResponse {

		private final StdioResponse response;

		private final HttpHeaders headers = new HttpHeaders();

		StdioClientResponse(StdioResponse response) {
			this.response = response;
			setIfPresent(HttpHeaders.CONTENT_TYPE, response.contentType());
			setIfPresent(McpHeaders.SESSION_ID, response.sessionId());
		}

		private void setIfPresent(String name, @Nullable String value) {
			if (value != null) {
				this.headers.set(name, value);
			}
		}

		@Override
		public HttpStatusCode getStatusCode() {
			return HttpStatusCode.valueOf(this.response.status());
		}

		@Override
		public String getStatusText() {
			return "";
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.headers;
		}

		@Override
		public InputStream getBody() {
			return this.response.body();
		}

		@Override
		public void close() {
			try {
				this.response.body().close();
			}
			catch (IOException ex) {
				// An in-process stream: nothing to release.
			}
		}

	}

}
