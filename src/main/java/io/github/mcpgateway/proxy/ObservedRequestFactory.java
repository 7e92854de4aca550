package io.github.mcpgateway.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;

import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.PipelineObserver;
import io.github.mcpgateway.request.UpstreamObservation;

/**
 * The proxy's request factory with the pipeline's observer told about each upstream call
 * ({@link UpstreamObservation}): wired only when there is an observer (tracing on), so
 * without one the upstream call is the plain factory's.
 *
 * <p>
 * Contract: the observation is asked for when the request is created, from the
 * {@link ProxiedRequest}'s context; a call without one, or whose observation is
 * {@link UpstreamObservation#NONE}, is the delegate's request unwrapped. Otherwise
 * {@code execute()} sends through {@link UpstreamObservation#send}, after the proxy
 * copied the caller's headers, and the body is held in memory only when the observation
 * asks for it, then written inside the send as {@link UpstreamObservation#body} returns
 * it.
 */
record ObservedRequestFactory(ClientHttpRequestFactory delegate,
		PipelineObserver observer) implements ClientHttpRequestFactory {

	@Override
	public ClientHttpRequest createRequest(URI uri, HttpMethod httpMethod) throws IOException {
		ClientHttpRequest request = this.delegate.createRequest(uri, httpMethod);
		McpRequestContext context = ProxiedRequest.context();
		UpstreamObservation observation = (context != null) ? this.observer.upstream(context)
				: UpstreamObservation.NONE;
		return (observation != UpstreamObservation.NONE) ? new ObservedRequest(request, observation) : request;
	}

	private static final class ObservedRequest implements ClientHttpRequest {

		private final ClientHttpRequest request;

		private final UpstreamObservation observation;

		private @Nullable ByteArrayOutputStream heldBody;

		ObservedRequest(ClientHttpRequest request, UpstreamObservation observation) {
			this.request = request;
			this.observation = observation;
		}

		@Override
		public ClientHttpResponse execute() throws IOException {
			return this.observation.send(this.request, () -> {
				writeHeldBody();
				return this.request.execute();
			});
		}

		@Override
		public OutputStream getBody() throws IOException {
			if (this.heldBody == null && this.observation.holdsBody()) {
				this.heldBody = new ByteArrayOutputStream();
			}
			return (this.heldBody != null) ? this.heldBody : this.request.getBody();
		}

		private void writeHeldBody() throws IOException {
			if (this.heldBody != null) {
				this.request.getBody().write(this.observation.body(this.request, this.heldBody.toByteArray()));
			}
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.request.getHeaders();
		}

		@Override
		public HttpMethod getMethod() {
			return this.request.getMethod();
		}

		@Override
		public URI getURI() {
			return this.request.getURI();
		}

		@Override
		public Map<String, Object> getAttributes() {
			return this.request.getAttributes();
		}

	}

}
