package io.github.mcpgateway.request;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.PolicyParser;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.support.TestJsonRpc;

/**
 * Exchanges for unit tests of a stage, as the request stage would have admitted them: a
 * {@link MockHttpServletRequest} whose {@link McpRequestContext} is open, its body parsed
 * once and its session id and revision recorded. {@link #post}, {@link #get} and
 * {@link #delete} return builders.
 */
public final class TestExchanges {

	private TestExchanges() {
	}

	/**
	 * The one server of a policy file whose {@code servers} list is {@code serverYaml}
	 * (one item, indented as a list item), parsed and validated as the gateway does.
	 */
	public static McpServerPolicy server(String serverYaml) {
		return new PolicyParser()
			.parse(("servers:\n" + serverYaml).getBytes(StandardCharsets.UTF_8), "test.yaml", Instant.EPOCH)
			.servers()
			.iterator()
			.next();
	}

	/** A POST of the JSON-RPC message {@code json} to {@code server}. */
	public static Builder post(McpServerPolicy server, String json) {
		return new Builder(server, "POST", json);
	}

	/** A GET (an event stream) of {@code server}. */
	public static Builder get(McpServerPolicy server) {
		return new Builder(server, "GET", null);
	}

	/** A DELETE (the end of a session) of {@code server}. */
	public static Builder delete(McpServerPolicy server) {
		return new Builder(server, "DELETE", null);
	}

	/** Builds one exchange. */
	public static final class Builder {

		private final McpServerPolicy server;

		private final String method;

		private final @Nullable String json;

		private @Nullable McpPrincipal principal;

		private @Nullable String sessionId;

		private boolean stateless;

		private final Map<String, String> headers = new LinkedHashMap<>();

		private Builder(McpServerPolicy server, String method, @Nullable String json) {
			this.server = server;
			this.method = method;
			this.json = json;
		}

		public Builder principal(@Nullable McpPrincipal principal) {
			this.principal = principal;
			return this;
		}

		public Builder sessionId(@Nullable String sessionId) {
			this.sessionId = sessionId;
			return this;
		}

		/** Of a stateless revision (2026-07-28). */
		public Builder stateless() {
			this.stateless = true;
			return this;
		}

		public Builder header(String name, String value) {
			this.headers.put(name, value);
			return this;
		}

		public McpExchange build() {
			MockHttpServletRequest request = new MockHttpServletRequest(this.method, this.server.path());
			this.headers.forEach(request::addHeader);
			McpRequestContext context = McpRequestContext.open(request, this.server, this.principal, 0);
			if (this.json == null) {
				context.parsed(this.sessionId, null, this.stateless);
				return new McpExchange(request, new MockHttpServletResponse(), context);
			}
			byte[] body = this.json.getBytes(StandardCharsets.UTF_8);
			request.setContentType("application/json");
			request.setContent(body);
			JsonRpcMessage message = TestJsonRpc.parser().parse(body);
			context.parsed(this.sessionId, message, this.stateless);
			return new McpExchange(new CachedBodyRequest(request, body), new MockHttpServletResponse(), context);
		}

	}

}
