package io.github.mcpgateway.virtual;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class EventStreamRepliesTest {

	private final JsonMapper json = JsonMapper.builder().build();

	@Test
	void lastResponseWhenNotificationsComeFirstThenTheResponse() {
		String stream = """
				event: message
				data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}

				id: 2
				event: message
				data: {"jsonrpc":"2.0","id":"mcp-gateway",
				data: "result":{"tools":[]}}

				""";

		assertThat(EventStreamReplies.lastResponse(stream, this.json).path("result").has("tools")).isTrue();
	}

	@Test
	void lastResponseWhenAServerRequestOrNothingReadableThenNone() {
		String stream = "data: {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"sampling/createMessage\"}\n\n"
				+ "data: not json\n\n";

		assertThat(EventStreamReplies.lastResponse(stream, this.json)).isNull();
	}

	@Test
	void lastResponseWhenAnErrorThenTheError() {
		String stream = "data:{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"no\"}}\r\n\r\n";

		assertThat(EventStreamReplies.lastResponse(stream, this.json).path("error").path("code").asInt())
			.isEqualTo(-32601);
	}

}
