package io.github.mcpgateway.proxy;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.cloud.gateway.server.mvc.filter.ForwardedRequestHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.HttpHeadersFilter.RequestHttpHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.HttpHeadersFilter.ResponseHttpHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.RemoveContentLengthRequestHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.RemoveForwardedRequestHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.RemoveHopByHopRequestHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.RemoveHopByHopResponseHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.RemoveHttp2StatusResponseHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.RemoveXForwardedRequestHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.TransferEncodingNormalizationRequestHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.XForwardedRequestHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.XForwardedRequestHeadersFilterProperties;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.IdentityMode;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.TestRequestContexts;
import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.upstreamauth.PrincipalHeaders;
import io.github.mcpgateway.upstreamauth.UpstreamCredential;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one pass over the headers ({@link UpstreamHeaders}) leaves exactly what Spring
 * Cloud Gateway's own header filters, applied one by one in their order, and the
 * gateway's rules as header filters of their own would leave: for random requests and
 * replies, with the filters registered without trusted proxies (the default) and with
 * them.
 */
class UpstreamHeadersTest {

	private static final List<String> NAMES = List.of("Authorization", "authorization", "Cookie", "Proxy-Authorization",
			"Connection", "Keep-Alive", "Transfer-Encoding", "TE", "Trailer", "Upgrade", "X-Application-Context",
			"Content-Length", "Content-Type", "Accept", "Forwarded", "X-Forwarded-For", "x-forwarded-host",
			"X-Forwarded-Proto", "X-Custom", "Mcp-Session-Id", "Idempotency-Key", "Mcp-Gateway-Human",
			"mcp-gateway-team", "MCP-Protocol-Version", "Host", "Proxy-Connection", ":status", "X-Trace");

	private static final List<String> VALUES = List.of("chunked", " Chunked ", "gzip, chunked", "1", "for=10.0.0.1",
			"for=127.0.0.1;proto=http", "close, X-Custom", "a,b", "application/json", "text/plain");

	private static final McpPrincipal ALICE = new McpPrincipal("alice", "agent-1", "blue");

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void requestHeadersEqualSpringCloudGatewaysFiltersAndTheGatewaysRules(boolean trustedProxies) {
		List<RequestHttpHeadersFilter> scg = new ArrayList<>(List.of(new RemoveContentLengthRequestHeadersFilter(),
				new TransferEncodingNormalizationRequestHeadersFilter(), new RemoveHopByHopRequestHeadersFilter()));
		if (trustedProxies) {
			scg.add(new ForwardedRequestHeadersFilter("127\\.0\\.0\\.1"));
			scg.add(new XForwardedRequestHeadersFilter(new XForwardedRequestHeadersFilterProperties(),
					"127\\.0\\.0\\.1"));
		}
		else {
			scg.add(new RemoveForwardedRequestHeadersFilter());
			scg.add(new RemoveXForwardedRequestHeadersFilter());
		}
		AnnotationAwareOrderComparator.sort(scg);
		CredentialHeaders credentials = new CredentialHeaders(List.of("Authorization"));
		UpstreamHeaders onePass = new UpstreamHeaders(scg, List.of(), List.of(new StatelessRule(), new KeyRule()),
				credentials);
		Random random = new Random(27);
		for (int i = 0; i < 2000; i++) {
			MockHttpServletRequest servlet = randomRequest(random);
			IdentityMode identity = random.nextBoolean() ? IdentityMode.DELEGATED_HEADER : IdentityMode.OAUTH;
			UpstreamCredential credential = random.nextBoolean()
					? new UpstreamCredential("upstream-token", random.nextBoolean() ? ALICE : null) : null;
			McpRequestContext context = TestRequestContexts.open(servlet, server(identity), ALICE, random.nextBoolean(),
					credential);
			ServerRequest request = ServerRequest.create(servlet, List.of());

			HttpHeaders expected = oneByOne(scg, request, context);
			HttpHeaders actual = onePass.request(request, context);

			assertThat(entries(actual)).as("request %d: %s", i, request.headers().asHttpHeaders())
				.isEqualTo(entries(expected));
		}
	}

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void replyHeadersEqualSpringCloudGatewaysFilters(boolean withStatusFilter) throws Exception {
		List<ResponseHttpHeadersFilter> scg = new ArrayList<>(List.of(new RemoveHopByHopResponseHeadersFilter()));
		if (withStatusFilter) {
			scg.add(new RemoveHttp2StatusResponseHeadersFilter());
		}
		AnnotationAwareOrderComparator.sort(scg);
		UpstreamHeaders onePass = new UpstreamHeaders(List.of(), scg, List.of(), new CredentialHeaders(List.of()));
		Random random = new Random(72);
		for (int i = 0; i < 1000; i++) {
			HttpHeaders upstream = new HttpHeaders();
			for (int h = random.nextInt(12); h > 0; h--) {
				String name = pick(random, NAMES);
				upstream.add(name, value(random, name));
			}
			ServerResponse relayed = ServerResponse.ok().build();
			HttpHeaders expected = upstream;
			for (ResponseHttpHeadersFilter filter : scg) {
				expected = filter.apply(expected, relayed);
			}

			HttpHeaders actual = onePass.response(upstream, relayed);

			assertThat(entries(actual)).as("reply %d: %s", i, upstream).isEqualTo(entries(expected));
		}
	}

	/**
	 * Spring Cloud Gateway's filters one by one, then the gateway's rules as the header
	 * filters they were (credentials, the Idempotency-Key, a stateless session id), then
	 * {@code Host} removed: the proxy before the one pass.
	 */
	private static HttpHeaders oneByOne(List<RequestHttpHeadersFilter> scg, ServerRequest request,
			McpRequestContext context) {
		HttpHeaders headers = request.headers().asHttpHeaders();
		for (RequestHttpHeadersFilter filter : scg) {
			headers = filter.apply(headers, request);
		}
		HttpHeaders filtered = new HttpHeaders();
		filtered.putAll(headers);
		boolean delegated = context.server().identity() == IdentityMode.DELEGATED_HEADER;
		for (String credential : CredentialHeaders.CREDENTIAL_HEADERS) {
			if (!delegated || !credential.equalsIgnoreCase("Authorization")) {
				filtered.remove(credential);
			}
		}
		PrincipalHeaders.NAMES.forEach(filtered::remove);
		UpstreamCredential credential = context.get(UpstreamCredential.SLOT);
		filtered.remove(McpHeaders.IDEMPOTENCY_KEY);
		if (context.stateless()) {
			filtered.remove(McpHeaders.SESSION_ID);
		}
		if (credential != null) {
			filtered.setBearerAuth(credential.bearerToken());
			if (credential.principal() != null) {
				PrincipalHeaders.set(filtered, credential.principal());
			}
		}
		filtered.remove(HttpHeaders.HOST);
		return filtered;
	}

	private static MockHttpServletRequest randomRequest(Random random) {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/mcp/test/guarded");
		request.setRemoteAddr(random.nextBoolean() ? "127.0.0.1" : "10.1.2.3");
		request.setServerName("gateway.example");
		for (int h = random.nextInt(14); h > 0; h--) {
			String name = pick(random, NAMES);
			request.addHeader(name, value(random, name));
		}
		return request;
	}

	private static McpServerPolicy server(IdentityMode identity) {
		return new McpServerPolicy("test", "guarded", "uid-guarded", URI.create("http://upstream.example/mcp"), null,
				"/mcp/test/guarded", identity, null, null, null);
	}

	/** Names (lower case) and values, in order. */
	private static List<Map.Entry<String, List<String>>> entries(HttpHeaders headers) {
		List<Map.Entry<String, List<String>>> entries = new ArrayList<>();
		for (Map.Entry<String, List<String>> header : headers.headerSet()) {
			entries.add(Map.entry(header.getKey().toLowerCase(Locale.ROOT), List.copyOf(header.getValue())));
		}
		return entries;
	}

	/**
	 * A value for {@code name}: a number for {@code Content-Length}, as a client sends.
	 */
	private static String value(Random random, String name) {
		if (name.equalsIgnoreCase("Content-Length")) {
			return Integer.toString(random.nextInt(100));
		}
		if (name.equalsIgnoreCase("Forwarded")) {
			// Spring Cloud Gateway's Forwarded writer needs a "for" in every element it
			// is
			// given by a trusted proxy (it fails on one without).
			return pick(random, List.of("for=10.0.0.1", "for=127.0.0.1;proto=http", "for=10.0.0.1, for=127.0.0.1"));
		}
		return name.equalsIgnoreCase("Host") ? pick(random, List.of("gateway.example", "gateway.example:8443"))
				: pick(random, VALUES);
	}

	private static String pick(Random random, List<String> values) {
		return values.get(random.nextInt(values.size()));
	}

	private static final class StatelessRule implements io.github.mcpgateway.request.UpstreamHeaderRule {

		@Override
		public boolean withholds(String name, McpRequestContext context) {
			return context.stateless() && name.equals("mcp-session-id");
		}

	}

	private static final class KeyRule implements io.github.mcpgateway.request.UpstreamHeaderRule {

		@Override
		public boolean withholds(String name, McpRequestContext context) {
			return name.equals("idempotency-key");
		}

	}

}
