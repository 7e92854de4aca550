package io.github.mcpgateway.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.support.TestJsonRpc;

import static org.assertj.core.api.Assertions.assertThat;

class SseMessageStreamTest {

	private static final String RESULT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"echo\"},"
			+ "{\"name\":\"admin_reset\"}]}}";

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	private final SseMessageStream stream = new SseMessageStream(this.out,
			new ListResultFilter(TestJsonRpc.reader(), JsonMapper.builder().build(), "tools", "name",
					(tools) -> tools.stream().filter("echo"::equals).collect(Collectors.toSet())),
			1024, FilteredResponse.Unreadable.WITHHOLD);

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
		assertThat(this.stream.withheld()).isFalse();
	}

	@Test
	void closeWhenIncompleteEventThenWithheld() throws IOException {
		write("event: message\n\ndata: " + RESULT);

		this.stream.close();

		assertThat(text()).isEqualTo("event: message\n\n");
		assertThat(this.stream.withheld()).isFalse();
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
		assertThat(this.stream.withheld()).isTrue();
	}

	@Test
	void writeWhenTheFilterDropsAMessageThenOnlyThatEventIsLeftOut() throws IOException {
		SseMessageStream dropping = new SseMessageStream(
				this.out, (message) -> new String(message, StandardCharsets.UTF_8).contains("secret")
						? MessageFilter.Verdict.DROP : MessageFilter.Verdict.PASS,
				1024, FilteredResponse.Unreadable.WITHHOLD);
		String kept = "id: 1\ndata: {\"a\":1}\n\n";
		String after = "id: 3\ndata: {\"c\":3}\n\n";

		byte[] bytes = (kept + "id: 2\ndata: {\"secret\":2}\n\n" + after).getBytes(StandardCharsets.UTF_8);
		dropping.write(bytes, 0, bytes.length);

		assertThat(text()).isEqualTo(kept + after);
		assertThat(dropping.withheld()).isFalse();
	}

	@Test
	void writeWhenAnEventPassesTheCapUnderWithholdThenItAndTheRestAreWithheld() throws IOException {
		write("data: {\"a\":1}\n\n");
		String before = text();

		write("data: " + "x".repeat(2000) + "\n\ndata: {\"b\":2}\n\n");

		assertThat(text()).isEqualTo(before);
		assertThat(this.stream.withheld()).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "\n\n", "\r\n\r\n", "\r\r" })
	void writeWhenAnEventPassesTheCapUnderPassThenItIsRelayedUnreadAndTheNextFilteredAgain(String blank)
			throws IOException {
		SseMessageStream passing = new SseMessageStream(
				this.out, (message) -> new String(message, StandardCharsets.UTF_8).contains("secret")
						? MessageFilter.Verdict.DROP : MessageFilter.Verdict.PASS,
				100, FilteredResponse.Unreadable.PASS);
		String big = "id: 1" + blank.substring(0, blank.length() / 2) + "data: " + "y".repeat(150) + blank;
		// The last comment is incomplete: it lets the CR before it be judged.
		byte[] bytes = (big + "data: {\"secret\":1}" + blank + "data: {\"c\":3}" + blank + ": more")
			.getBytes(StandardCharsets.UTF_8);

		// In small pieces, so that the event's end is found across writes.
		for (int i = 0; i < bytes.length; i += 7) {
			passing.write(bytes, i, Math.min(7, bytes.length - i));
		}

		assertThat(text()).isEqualTo(big + "data: {\"c\":3}" + blank);
		assertThat(passing.withheld()).isFalse();
	}

	private void write(String text) throws IOException {
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		this.stream.write(bytes, 0, bytes.length);
	}

	private String text() {
		return this.out.toString(StandardCharsets.UTF_8);
	}

}
