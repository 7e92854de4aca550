package io.github.mcpgateway.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.observation.ClientHttpObservationDocumentation;
import org.springframework.http.client.observation.ClientRequestObservationContext;
import org.springframework.http.client.observation.ClientRequestObservationConvention;
import org.springframework.http.client.observation.DefaultClientRequestObservationConvention;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.tracing.MetaTraceContext;
import tools.jackson.databind.JsonNode;

/**
 * The upstream exchange as an observation (Spring's {@code http.client.requests}): with
 * tracing on, a client span that is a child of the request's server span and whose
 * {@code traceparent} (and {@code tracestate}) the upstream receives, in place of
 * whatever the caller sent, which Spring Cloud Gateway copies over. Used only when the
 * gateway traces ({@code gateway.tracing.enabled}).
 *
 * <p>
 * Contract: the observation starts in {@link ClientHttpRequest#execute()}, after the
 * proxy copied the caller's headers and before they are sent, and stops when the reply is
 * closed (its body relayed to the end, or abandoned), or when the exchange fails; it
 * stops once.
 *
 * <p>
 * With {@code writeMetaContext}, a request whose message carries
 * {@code params._meta.traceparent} reaches the upstream with this span's
 * {@code traceparent} in its place ({@link MetaTraceContext#rewrite}: the value's bytes
 * only, the body's length unchanged); its body is then held in memory until
 * {@code execute()}, when the span exists. Any other body is streamed through untouched.
 */
final class ObservedRequestFactory implements ClientHttpRequestFactory {

	private static final ClientRequestObservationConvention DEFAULT = new DefaultClientRequestObservationConvention();

	private final ClientHttpRequestFactory delegate;

	private final ObservationRegistry registry;

	private final ClientRequestObservationConvention convention;

	private final boolean writeMetaContext;

	ObservedRequestFactory(ClientHttpRequestFactory delegate, ObservationRegistry registry,
			ClientRequestObservationConvention convention, boolean writeMetaContext) {
		this.delegate = delegate;
		this.registry = registry;
		this.convention = convention;
		this.writeMetaContext = writeMetaContext;
	}

	@Override
	public ClientHttpRequest createRequest(URI uri, HttpMethod httpMethod) throws IOException {
		return new ObservedRequest(this.delegate.createRequest(uri, httpMethod));
	}

	private final class ObservedRequest implements ClientHttpRequest {

		private final ClientHttpRequest request;

		private @Nullable ByteArrayOutputStream heldBody;

		ObservedRequest(ClientHttpRequest request) {
			this.request = request;
		}

		@Override
		public ClientHttpResponse execute() throws IOException {
			ClientRequestObservationContext context = new ClientRequestObservationContext(this.request);
			Observation observation = ClientHttpObservationDocumentation.HTTP_CLIENT_EXCHANGES
				.observation(ObservedRequestFactory.this.convention, DEFAULT, () -> context,
						ObservedRequestFactory.this.registry)
				.start();
			try (Observation.Scope scope = observation.openScope()) {
				writeHeldBody();
				ClientHttpResponse response = this.request.execute();
				context.setResponse(response);
				return new ObservedResponse(response, observation);
			}
			catch (IOException | RuntimeException ex) {
				observation.error(ex);
				observation.stop();
				throw ex;
			}
		}

		@Override
		public OutputStream getBody() throws IOException {
			if (this.heldBody == null && ObservedRequestFactory.this.writeMetaContext && carriesMetaTraceparent()) {
				this.heldBody = new ByteArrayOutputStream();
			}
			return (this.heldBody != null) ? this.heldBody : this.request.getBody();
		}

		/** The held body, with the client span's traceparent in its {@code _meta}. */
		private void writeHeldBody() throws IOException {
			if (this.heldBody == null) {
				return;
			}
			byte[] body = this.heldBody.toByteArray();
			MetaTraceContext meta = MetaTraceContext.locate(body);
			String traceparent = this.request.getHeaders().getFirst(MetaTraceContext.TRACEPARENT);
			if (meta != null && traceparent != null) {
				body = meta.rewrite(body, traceparent);
			}
			this.request.getBody().write(body);
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

	private static boolean carriesMetaTraceparent() {
		JsonRpcMessage message = ProxiedRequest.message();
		JsonNode params = (message != null) ? message.params() : null;
		return params != null && params.path("_meta").path(MetaTraceContext.TRACEPARENT).isString();
	}

	private static final class ObservedResponse implements ClientHttpResponse {

		private final ClientHttpResponse response;

		private final Observation observation;

		private final AtomicBoolean stopped = new AtomicBoolean();

		ObservedResponse(ClientHttpResponse response, Observation observation) {
			this.response = response;
			this.observation = observation;
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
				if (this.stopped.compareAndSet(false, true)) {
					this.observation.stop();
				}
			}
		}

	}

}
