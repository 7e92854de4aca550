package io.github.mcpgateway.jsonrpc;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage.Kind;
import io.github.mcpgateway.support.TestJsonRpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonRpcMessageParserTest {

	private final JsonRpcMessageParser parser = TestJsonRpc.parser();

	@Test
	void parseWhenToolCallThenKeepsIdTypeAndToolName() {
		JsonRpcMessage message = parse(
				"{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"}}");

		assertThat(message.kind()).isEqualTo(Kind.REQUEST);
		assertThat(message.isToolCall()).isTrue();
		assertThat(message.toolName()).isEqualTo("echo");
		assertThat(message.id().isString()).isTrue();
		assertThat(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").id().isNumber()).isTrue();
	}

	@Test
	void parseWhenNoIdThenNotification() {
		JsonRpcMessage message = parse("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

		assertThat(message.kind()).isEqualTo(Kind.NOTIFICATION);
		assertThat(message.id()).isNull();
	}

	@Test
	void parseWhenNotificationHasNullIdThenNotificationWithoutId() {
		JsonRpcMessage message = parse("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"notifications/initialized\"}");

		assertThat(message.kind()).isEqualTo(Kind.NOTIFICATION);
		assertThat(message.id()).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"get-env\"}}",
			"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"tools/call\",\"params\":{\"name\":\"get-env\"}}",
			"{\"jsonrpc\":\"2.0\",\"method\":\"tasks/cancel\",\"params\":{\"taskId\":\"t\"}}",
			"{\"jsonrpc\":\"2.0\",\"method\":\"prompts/get\",\"params\":{\"name\":\"p\"}}",
			"{\"jsonrpc\":\"2.0\",\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///x\"}}",
			"{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}",
			"{\"jsonrpc\":\"2.0\",\"method\":\"notification/initialized\"}",
			"{\"jsonrpc\":\"2.0\",\"method\":\"Notifications/initialized\"}",
			"{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\"}" })
	void parseWhenRequestMethodHasNoIdThenRequestIdMissing(String body) {
		assertThatThrownBy(() -> parse(body)).isInstanceOfSatisfying(GatewayErrorException.class,
				(ex) -> assertThat(ex.error().code()).isEqualTo("request_id_missing"));
	}

	@Test
	void parseWhenClientAnswersServerRequestThenResponse() {
		assertThat(parse("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}").kind()).isEqualTo(Kind.RESPONSE);
		assertThat(parse("{\"jsonrpc\":\"2.0\",\"id\":4,\"error\":{\"code\":1,\"message\":\"m\"}}").kind())
			.isEqualTo(Kind.RESPONSE);
	}

	@Test
	void parseWhenArrayThenBatchNotSupported() {
		assertThatThrownBy(() -> parse("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]")).isInstanceOfSatisfying(
				GatewayErrorException.class, (ex) -> assertThat(ex.error().code()).isEqualTo("batch_not_supported"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "{", "null", "42", "\"x\"", "{}", "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}",
			"{\"jsonrpc\":\"2.0\",\"id\":1}", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}",
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\"}", "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}",
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":3}",
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{}}",
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":5}}",
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{}}", "{\"jsonrpc\":\"2.0\",\"result\":{}}" })
	void parseWhenNotAValidMessageThenInvalidRequest(String body) {
		assertThatThrownBy(() -> parse(body)).isInstanceOfSatisfying(GatewayErrorException.class,
				(ex) -> assertThat(ex.error().code()).isEqualTo("invalid_request"));
	}

	private JsonRpcMessage parse(String body) {
		return this.parser.parse(body.getBytes(StandardCharsets.UTF_8));
	}

}
