package io.github.mcpgateway.policy.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.mcpgateway.support.TestJsonRpc;
import io.github.mcpgateway.transport.SseEvent;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class SseToolListStreamTest {

	private static final String RESULT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"echo\"},"
			+ "{\"name\":\"admin_reset\"}]}}";

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	private final SseToolListStream stream = new SseToolListStream(this.out,
			new ToolListRewriter(TestJsonRpc.reader(), JsonMapper.builder().build(), (tool) -> tool.equals("echo")));

	@Test
	void writeWhenEventSplitAcrossWritesThenHeldUntilCompleteAndRewritten() throws IOException {
		write("id: 7\nevent: message\ndata: " + RESULT.substring(0, 20));
		assertThat(this.out.size()).isZero();

		write(RESULT.substring(20) + "\n\n");

		assertThat(text()).isEqualTo("id: 7\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":"
				+ "{\"tools\":[{\"name\":\"echo\"}]}}\n\n");
	}

	@Test
	void writeWhenOtherEventsThenPassedByteForByte() throws IOException {
		String events = ": keep-alive\r\n\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\r\n\r\n"
				+ "event: other\ndata: " + RESULT + "\n\n";

		write(events);

		assertThat(text()).isEqualTo(events);
	}

	@Test
	void writeWhenDataSpansSeveralLinesThenJoinedBeforeRewriting() throws IOException {
		write("data: {\"jsonrpc\":\"2.0\",\"id\":1,\n"
				+ "data: \"result\":{\"tools\":[{\"name\":\"admin_reset\"}]}}\n\n");

		assertThat(text()).isEqualTo("data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}\n\n");
	}

	@Test
	void eventEndRecognisesEveryPairOfLineTerminators() {
		for (String blank : new String[] { "\n\n", "\r\r", "\r\n\r\n", "\n\r\n", "\r\n\n", "\r\n\r" }) {
			byte[] event = ("data: x" + blank + "next").getBytes(StandardCharsets.UTF_8);
			assertThat(SseEvent.eventEnd(event, 0)).as(blank.replace("\r", "CR").replace("\n", "LF"))
				.isEqualTo(7 + blank.length());
		}
		assertThat(SseEvent.eventEnd("data: x\r".getBytes(StandardCharsets.UTF_8), 0)).isEqualTo(-1);
		assertThat(SseEvent.eventEnd("data: x\n".getBytes(StandardCharsets.UTF_8), 0)).isEqualTo(-1);
	}

	@Test
	void writeWhenAPrimingEventHasEmptyDataThenPassedByteForByte() throws IOException {
		String events = "id: 1\ndata: \n\nid: 2\ndata:\n\n";

		write(events);

		assertThat(text()).isEqualTo(events);
		assertThat(this.stream.unfilterable()).isFalse();
	}

	@Test
	void closeWhenIncompleteEventThenWithheld() throws IOException {
		write("event: message\n\ndata: " + RESULT);

		this.stream.close();

		assertThat(text()).isEqualTo("event: message\n\n");
		assertThat(this.stream.unfilterable()).isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"admin_reset\"}", "[1]",
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]},\"result\":{\"tools\":[{\"name\":\"admin_reset\"}]}}",
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}} {\"name\":\"admin_reset\"}", "not json" })
	void writeWhenAMessageCannotBeReadThenItAndTheRestAreWithheld(String data) throws IOException {
		write("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\n");
		String before = text();

		write("event: message\ndata: " + data + "\n\nevent: message\ndata: " + RESULT + "\n\n");
		this.stream.close();

		assertThat(text()).isEqualTo(before).doesNotContain("admin_reset");
		assertThat(this.stream.unfilterable()).isTrue();
	}

	private void write(String text) throws IOException {
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		this.stream.write(bytes, 0, bytes.length);
	}

	private String text() {
		return this.out.toString(StandardCharsets.UTF_8);
	}

}
