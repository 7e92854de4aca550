package io.github.mcpgateway.proxy;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpMethod;
import org.springframework.http.HttpRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.mock.http.client.MockClientHttpRequest;
import org.springframework.mock.http.client.MockClientHttpResponse;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.PipelineObserver;
import io.github.mcpgateway.request.TestRequestContexts;
import io.github.mcpgateway.request.UpstreamObservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * The proxy tells the pipeline's observer about an upstream call and nothing more:
 * without an observation the delegate's request goes out unwrapped; with one, its headers
 * are set before the call, a held body reaches the upstream as the observation returns
 * it, any other body is streamed straight through, and the reply it returns is the one
 * relayed.
 */
class ObservedRequestFactoryTest {

	private static final URI UPSTREAM = URI.create("http://upstream.example/mcp");

	private final List<MockClientHttpRequest> sent = new ArrayList<>();

	private final MockClientHttpResponse reply = new MockClientHttpResponse(new byte[0], HttpStatus.OK);

	@AfterEach
	void leaveTheRequestThread() {
		RequestContextHolder.resetRequestAttributes();
	}

	@Test
	void createRequestWhenTheObserverObservesNothingThenTheDelegatesRequestUnwrapped() throws IOException {
		onAnMcpRequest();

		ClientHttpRequest request = factory(PipelineObserver.NONE).createRequest(UPSTREAM, HttpMethod.POST);

		assertThat(request).isSameAs(this.sent.get(0));
	}

	@Test
	void createRequestOffAnMcpRequestThenTheDelegatesRequestUnwrapped() throws IOException {
		Observation observation = new Observation(true);

		ClientHttpRequest request = factory(observing(observation)).createRequest(UPSTREAM, HttpMethod.POST);

		assertThat(request).isSameAs(this.sent.get(0));
	}

	@Test
	void executeWhenTheBodyIsHeldThenTheUpstreamGetsTheObservationsHeadersAndBody() throws IOException {
		onAnMcpRequest();
		Observation observation = new Observation(true);
		ClientHttpRequest request = factory(observing(observation)).createRequest(UPSTREAM, HttpMethod.POST);

		request.getBody().write(bytes("{\"a\":1}"));
		assertThat(this.sent.get(0).getBodyAsBytes()).as("held until the call").isEmpty();
		ClientHttpResponse response = request.execute();

		assertThat(response).isSameAs(this.reply);
		assertThat(this.sent.get(0).getHeaders().getFirst("x-observed")).isEqualTo("yes");
		assertThat(this.sent.get(0).getBodyAsString()).isEqualTo("{\"A\":1}");
		assertThat(observation.heldBodySeenWithHeader).isTrue();
	}

	@Test
	void executeWhenTheBodyIsNotHeldThenItIsStreamedThroughUntouched() throws IOException {
		onAnMcpRequest();
		Observation observation = new Observation(false);
		ClientHttpRequest request = factory(observing(observation)).createRequest(UPSTREAM, HttpMethod.POST);

		request.getBody().write(bytes("{\"a\":1}"));
		assertThat(this.sent.get(0).getBodyAsString()).as("streamed at once").isEqualTo("{\"a\":1}");
		request.execute();

		assertThat(this.sent.get(0).getBodyAsString()).isEqualTo("{\"a\":1}");
		assertThat(observation.sends).isEqualTo(1);
	}

	@Test
	void executeWhenTheCallFailsThenTheFailureReachesTheObservationAndTheCaller() throws IOException {
		onAnMcpRequest();
		Observation observation = new Observation(false);
		ObservedRequestFactory factory = new ObservedRequestFactory((uri, method) -> new MockClientHttpRequest() {

			@Override
			protected ClientHttpResponse executeInternal() throws IOException {
				throw new IOException("connection refused");
			}

		}, observing(observation));

		assertThatIOException().isThrownBy(() -> factory.createRequest(UPSTREAM, HttpMethod.POST).execute())
			.withMessage("connection refused");
		assertThat(observation.failure).isInstanceOf(IOException.class);
	}

	private ObservedRequestFactory factory(PipelineObserver observer) {
		return new ObservedRequestFactory((uri, method) -> {
			MockClientHttpRequest request = new MockClientHttpRequest(method, uri);
			request.setResponse(this.reply);
			this.sent.add(request);
			return request;
		}, observer);
	}

	private static void onAnMcpRequest() {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/mcp/test/echo");
		TestRequestContexts.open(request,
				new McpServerPolicy("test", "echo", null, UPSTREAM, null, "/mcp/test/echo", null, null, null, null),
				null, false, null);
		RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request));
	}

	private static PipelineObserver observing(UpstreamObservation observation) {
		return new PipelineObserver() {

			@Override
			public UpstreamObservation upstream(McpRequestContext context) {
				return observation;
			}

		};
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/** Sets a header before the call and upper-cases a held body. */
	private static final class Observation implements UpstreamObservation {

		private final boolean holds;

		private int sends;

		private boolean heldBodySeenWithHeader;

		private Exception failure;

		Observation(boolean holds) {
			this.holds = holds;
		}

		@Override
		public boolean holdsBody() {
			return this.holds;
		}

		@Override
		public byte[] body(HttpRequest request, byte[] held) {
			this.heldBodySeenWithHeader = "yes".equals(request.getHeaders().getFirst("x-observed"));
			return new String(held, StandardCharsets.UTF_8).toUpperCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8);
		}

		@Override
		public ClientHttpResponse send(HttpRequest request, Call call) throws IOException {
			this.sends++;
			request.getHeaders().set("x-observed", "yes");
			try {
				return call.send();
			}
			catch (IOException ex) {
				this.failure = ex;
				throw ex;
			}
		}

	}

}
