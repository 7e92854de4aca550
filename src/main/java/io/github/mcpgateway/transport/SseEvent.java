package io.github.mcpgateway.transport;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One event of a {@code text/event-stream}, as the HTML Living Standard's server-sent
 * events parsing reads it: the {@code event} type ({@code message} when absent), the
 * {@code data} lines joined by LF ({@code null} when the event has no data line), and
 * every other non-blank line kept as written (ids, comments, retry).
 *
 * @param type the event type
 * @param data the event's data, or {@code null}
 * @param otherLines the lines that are neither data nor blank, in order
 */
public record SseEvent(String type, @Nullable String data, List<String> otherLines) {

	/** Whether a client dispatches this event as a message: data that is not empty. */
	public boolean isMessage() {
		return this.data != null && !this.data.isEmpty() && "message".equals(this.type);
	}

	/** Parses the text of one event (up to and including its blank line). */
	public static SseEvent parse(String event) {
		List<String> others = new ArrayList<>();
		StringBuilder data = null;
		String type = "message";
		for (String line : event.split("\r\n|\r|\n")) {
			if (line.startsWith("data:")) {
				String value = line.substring(5);
				value = value.startsWith(" ") ? value.substring(1) : value;
				data = (data == null) ? new StringBuilder(value) : data.append('\n').append(value);
			}
			else if (!line.isEmpty()) {
				if (line.startsWith("event:")) {
					String value = line.substring(6).trim();
					type = value.isEmpty() ? "message" : value;
				}
				others.add(line);
			}
		}
		return new SseEvent(type, (data != null) ? data.toString() : null, List.copyOf(others));
	}

	/**
	 * Index just after the blank line that ends the first event at or after {@code from},
	 * or -1 when no event is complete yet. A blank line is two line terminators in a row,
	 * each CRLF, LF or CR; a CR as the last byte cannot be judged until the next byte
	 * arrives.
	 */
	public static int eventEnd(byte[] bytes, int from) {
		for (int i = from; i < bytes.length; i++) {
			int first = terminatorLength(bytes, i);
			if (first < 0) {
				return -1;
			}
			if (first > 0) {
				int second = terminatorLength(bytes, i + first);
				if (second < 0) {
					return -1;
				}
				if (second > 0) {
					return i + first + second;
				}
			}
		}
		return -1;
	}

	/**
	 * Length of the line terminator at {@code i}: 0 for none, -1 when more bytes are
	 * needed.
	 */
	private static int terminatorLength(byte[] bytes, int i) {
		if (i >= bytes.length) {
			return -1;
		}
		if (bytes[i] == '\n') {
			return 1;
		}
		if (bytes[i] == '\r') {
			if (i + 1 >= bytes.length) {
				return -1;
			}
			return (bytes[i + 1] == '\n') ? 2 : 1;
		}
		return 0;
	}

}
