package io.github.mcpgateway.guard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;

import jakarta.servlet.ServletException;
import org.apache.hc.client5.http.HttpHostConnectException;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.ResourceAccessException;

import static org.assertj.core.api.Assertions.assertThat;

class UpstreamFailureTest {

	@Test
	void classifyWhenConnectionRefusedThenUnreachableAndNotDispatched() {
		UpstreamFailure failure = UpstreamFailure
			.classify(new ServletException(new ResourceAccessException("x", new HttpHostConnectException("refused"))));

		assertThat(failure).isEqualTo(UpstreamFailure.UNREACHABLE);
		assertThat(failure.dispatched()).isFalse();
		assertThat(UpstreamFailure.classify(new UncheckedIOException(new ConnectException())))
			.isEqualTo(UpstreamFailure.UNREACHABLE);
	}

	@Test
	void classifyWhenReadTimesOutThenTimeoutAndDispatched() {
		UpstreamFailure failure = UpstreamFailure.classify(
				new ServletException(new ResourceAccessException("x", new SocketTimeoutException("Read timed out"))));

		assertThat(failure).isEqualTo(UpstreamFailure.TIMEOUT);
		assertThat(failure.error().status().value()).isEqualTo(504);
		assertThat(failure.dispatched()).isTrue();
	}

	@Test
	void classifyWhenConnectionBrokenThenBrokenAndDispatched() {
		UpstreamFailure failure = UpstreamFailure.classify(new IOException("Connection reset"));

		assertThat(failure).isEqualTo(UpstreamFailure.BROKEN);
		assertThat(failure.error().code()).isEqualTo("upstream_failed");
		assertThat(failure.dispatched()).isTrue();
	}

}
