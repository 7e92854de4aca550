package io.github.mcpgateway.routing;

import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.Filter;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;

import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import io.github.mcpgateway.support.GatewayIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A policy reload between the identity stage and the grant stage: the request in between
 * is decided wholly by the policy it arrived under (identity mode, grants and what the
 * proxy forwards), and the next request wholly by the new one. A filter between Spring
 * Security and the request stage holds the request on a latch while the test reloads.
 */
@Import(OnePolicySnapshotPerRequestIntegrationTest.Hold.class)
class OnePolicySnapshotPerRequestIntegrationTest extends GatewayIntegrationTest {

	static final CountDownLatch held = new CountDownLatch(1);

	static final CountDownLatch release = new CountDownLatch(1);

	@Test
	void aReloadDuringARequestChangesNothingOfThatRequest() throws Exception {
		CompletableFuture<HttpResponse<String>> first = CompletableFuture
			.supplyAsync(() -> post("/mcp/test/echo", validToken(), toolCall(1, "echo"), "X-Test-Hold", "yes"));
		assertThat(held.await(10, TimeUnit.SECONDS)).as("request held after identity").isTrue();

		// The new policy: the server's callers are no longer verified, and echo is no
		// longer granted.
		String before = "    path: /mcp/test/echo\n    grants:\n      - principal: { team: blue }\n"
				+ "        tools: [echo, \"notes_*\"]\n      - principal: { human: carol }\n        tools: [\"*\"]\n";
		assertThat(policy.standard()).contains(before);
		policy.write(policy.standard()
			.replace(before, "    path: /mcp/test/echo\n    identity: delegated-header\n    grants:\n"
					+ "      - tools: [other]\n"));
		this.policyReloader.reloadNow();
		release.countDown();
		HttpResponse<String> during = first.get(10, TimeUnit.SECONDS);
		HttpResponse<String> after = post("/mcp/test/echo", validToken(), toolCall(2, "echo"));

		assertThat(during.statusCode()).as(during.body()).isEqualTo(200);
		assertThat(upstream.count()).isEqualTo(1);
		assertThat(upstream.received().get(0).header("Authorization"))
			.as("an oauth server's upstream never gets the caller's token")
			.isNull();
		assertThat(after.statusCode()).isEqualTo(200);
		assertThat(after.body()).contains("\"code\":\"tool_not_granted\"");
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Hold {

		@Bean
		FilterRegistrationBean<Filter> holdAfterIdentity() {
			Filter filter = (request, response, chain) -> {
				if (((HttpServletRequest) request).getHeader("X-Test-Hold") != null) {
					held.countDown();
					try {
						release.await(10, TimeUnit.SECONDS);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
						throw new ServletException(ex);
					}
				}
				chain.doFilter(request, response);
			};
			FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(filter);
			registration.setOrder(SecurityFilterProperties.DEFAULT_FILTER_ORDER + 5);
			return registration;
		}

	}

}
