package io.github.mcpgateway.transport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.IntNode;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The rules of {@link SilentReply} and {@link SilentReplies} (ADR 0024), on a mock client
 * response: what the client receives, and what the stages above still see.
 */
class SilentReplyTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final GatewayErrorRenderer renderer = new GatewayErrorRenderer(json);

	private static final SilentReplies replies = SilentReplies.on(renderer, json);

	private static final JsonRpcMessage CALL = new JsonRpcMessage(JsonRpcMessage.Kind.REQUEST, IntNode.valueOf(7),
			"tools/call", null, "slow");

	private final MockHttpServletResponse client = new MockHttpServletResponse();

	@Test
	void replyThatStartsBeforeTheStreamOpensGoesOutAsItIsAndIsNeverOpened() throws IOException {
		SilentReply reply = wrap();
		byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32602,\"message\":\"no\"}}"
			.getBytes(StandardCharsets.UTF_8);

		reply.setStatus(400);
		reply.setContentType("application/json");
		reply.setContentLength(body.length);
		reply.getOutputStream().write(body);
		boolean opened = reply.keepAlive();
		reply.finish();

		assertThat(opened).isFalse();
		assertThat(this.client.getStatus()).isEqualTo(400);
		assertThat(this.client.getContentType()).isEqualTo("application/json");
		assertThat(this.client.getContentLength()).isEqualTo(body.length);
		assertThat(this.client.getContentAsByteArray()).isEqualTo(body);
	}

	@Test
	void firstKeepAliveOpensAnEventStreamAndLaterOnesWriteComments() throws IOException {
		SilentReply reply = wrap();

		assertThat(reply.keepAlive()).isTrue();
		assertThat(reply.keepAlive()).isTrue();

		assertThat(this.client.getStatus()).isEqualTo(200);
		assertThat(this.client.getContentType()).isEqualTo("text/event-stream");
		assertThat(this.client.getHeader("Cache-Control")).isEqualTo("no-cache");
		assertThat(this.client.getHeader("X-Accel-Buffering")).isEqualTo("no");
		assertThat(this.client.isCommitted()).isTrue();
		assertThat(this.client.getContentAsString()).isEqualTo(":\n\n:\n\n");
		assertThat(reply.isCommitted()).as("the stages may still answer").isFalse();
	}

	@Test
	void jsonReplyAfterTheStreamOpenedIsItsOneEventOnOneLineAndStagesStillSeeJson() throws IOException {
		SilentReply reply = wrap();
		reply.keepAlive();
		byte[] body = "{\r\n  \"jsonrpc\" : \"2.0\",\n  \"id\" : 7,\n  \"result\" : {\"text\":\"a\\nb\"}\n}"
			.getBytes(StandardCharsets.UTF_8);

		reply.setStatus(200);
		reply.setContentType("application/json");
		reply.setContentLength(body.length);
		reply.setHeader("X-Upstream", "seen");
		reply.getOutputStream().write(body, 0, 20);
		reply.getOutputStream().write(body, 20, body.length - 20);
		reply.finish();

		assertThat(this.client.getContentAsString()).isEqualTo(
				":\n\nevent: message\ndata: {  \"jsonrpc\" : \"2.0\",  \"id\" : 7,  \"result\" : {\"text\":\"a\\nb\"}}\n\n");
		assertThat(event().at("/result/text").asString()).isEqualTo("a\nb");
		assertThat(this.client.getHeader("X-Upstream")).isNull();
		assertThat(reply.getStatus()).isEqualTo(200);
		assertThat(reply.getContentType()).isEqualTo("application/json");
		assertThat(reply.isCommitted()).isTrue();
		assertThatIllegalStateException().isThrownBy(reply::resetBuffer);
	}

	@Test
	void errorStatusWithoutAJsonRpcResponseBecomesTheGatewaysErrorWithTheRequestsId() throws IOException {
		SilentReply reply = wrap();
		reply.keepAlive();

		reply.setStatus(500);
		reply.setContentType("text/html");
		reply.getOutputStream().write("<h1>boom</h1>".getBytes(StandardCharsets.UTF_8));
		reply.finish();

		JsonNode event = event();
		assertThat(event.at("/id").asInt()).isEqualTo(7);
		assertThat(event.at("/error/code").asInt()).isEqualTo(-32005);
		assertThat(event.at("/error/data/code").asString()).isEqualTo("upstream_http_error");
		assertThat(event.at("/error/data/upstreamStatus").asString()).isEqualTo("500");
		assertThat(reply.getStatus()).as("what the circuit breaker and the audit see").isEqualTo(500);
		assertThat(this.client.getStatus()).isEqualTo(200);
	}

	@Test
	void jsonRpcErrorSentWithAnErrorStatusIsTheEventAndGetsTheRequestsIdWhenItHasNone() throws IOException {
		SilentReply reply = wrap();
		reply.keepAlive();

		reply.setStatus(400);
		reply.setContentType("application/json");
		reply.getOutputStream()
			.write("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"bad\"}}"
				.getBytes(StandardCharsets.UTF_8));
		reply.finish();

		assertThat(event().at("/id").asInt()).isEqualTo(7);
		assertThat(event().at("/error/code").asInt()).isEqualTo(-32600);
	}

	@Test
	void eventStreamAfterTheStreamOpenedPassesThrough() throws IOException {
		SilentReply reply = wrap();
		reply.keepAlive();
		String events = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n"
				+ "data: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n";

		reply.setStatus(200);
		reply.setContentType("text/event-stream");
		reply.getOutputStream().write(events.getBytes(StandardCharsets.UTF_8));
		reply.flushBuffer();
		reply.finish();

		assertThat(this.client.getContentAsString()).isEqualTo(":\n\n" + events);
	}

	@Test
	void gatewayErrorRenderedAfterTheStreamOpenedIsItsEvent() throws IOException {
		SilentReply reply = wrap();
		reply.keepAlive();

		boolean rendered = renderer.render(reply, GatewayErrors.UPSTREAM_TIMEOUT, IntNode.valueOf(7));
		reply.finish();

		assertThat(rendered).isTrue();
		assertThat(event().at("/error/data/code").asString()).isEqualTo("upstream_timeout");
		assertThat(event().at("/id").asInt()).isEqualTo(7);
		assertThat(reply.getStatus()).isEqualTo(504);
	}

	@Test
	void streamThatOpenedAndGotNoReplyEndsWithAnErrorEvent() throws IOException {
		SilentReply reply = wrap();
		reply.keepAlive();

		reply.finish();

		assertThat(event().at("/error/data/code").asString()).isEqualTo("upstream_http_error");
	}

	@Test
	void encodedReplyIsNeverPutInAnEvent() throws IOException {
		SilentReply reply = wrap();
		reply.keepAlive();

		reply.setStatus(200);
		reply.setContentType("application/json");
		reply.setHeader("Content-Encoding", "gzip");
		reply.getOutputStream().write(new byte[] { 31, -117, 8, 0 });
		reply.finish();

		assertThat(reply.getHeader("Content-Encoding")).isEqualTo("gzip");
		assertThat(event().at("/error/data/code").asString()).isEqualTo("upstream_http_error");
	}

	@Test
	void onlyAStatelessRequestWhoseClientNamesEventStreamsIsWrapped() {
		assertThat(replies.wrap(request("2026-07-28", "application/json, text/event-stream"), CALL, this.client))
			.isInstanceOf(SilentReply.class);
		assertThat(replies.wrap(request("2025-11-25", "application/json, text/event-stream"), CALL, this.client))
			.isSameAs(this.client);
		assertThat(replies.wrap(request("2026-07-28", "application/json"), CALL, this.client)).isSameAs(this.client);
		assertThat(replies.wrap(request("2026-07-28", "*/*"), CALL, this.client)).isSameAs(this.client);
		JsonRpcMessage notification = new JsonRpcMessage(JsonRpcMessage.Kind.NOTIFICATION, null,
				"notifications/cancelled", null, null);
		assertThat(
				replies.wrap(request("2026-07-28", "application/json, text/event-stream"), notification, this.client))
			.isSameAs(this.client);
		HttpServletResponse held = new Held(this.client);
		assertThat(replies.wrap(request("2026-07-28", "application/json, text/event-stream"), CALL, held))
			.isSameAs(held);
		assertThat(
				SilentReplies.OFF.wrap(request("2026-07-28", "application/json, text/event-stream"), CALL, this.client))
			.isSameAs(this.client);
	}

	private SilentReply wrap() {
		return (SilentReply) replies.wrap(request("2026-07-28", "application/json, text/event-stream"), CALL,
				this.client);
	}

	private static MockHttpServletRequest request(String revision, String accept) {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/mcp/test/slow");
		request.addHeader("MCP-Protocol-Version", revision);
		request.addHeader("Accept", accept);
		return request;
	}

	/** The JSON-RPC message of the stream's one event. */
	private JsonNode event() throws IOException {
		String stream = this.client.getContentAsString();
		String[] events = stream.substring(stream.indexOf("event: message")).split("\n\n");
		assertThat(events).hasSize(1);
		return json.readTree(events[0].substring(events[0].indexOf("data: ") + "data: ".length()));
	}

	private static final class Held extends jakarta.servlet.http.HttpServletResponseWrapper implements HeldReply {

		Held(HttpServletResponse response) {
			super(response);
		}

	}

}
