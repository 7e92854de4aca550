package io.github.mcpgateway.policy.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import io.github.mcpgateway.transport.SynchronousOutputStream;

/**
 * Relays a {@code text/event-stream} event by event, rewriting the data of
 * {@code message} events with the {@link ToolListRewriter}.
 *
 * <p>
 * Only the event being received is held back (an incomplete event is of no use to a
 * client anyway); each complete event is written and flushed when the proxy flushes.
 * Events other than a tools/list result pass byte for byte. Event boundaries follow the
 * SSE specification: a blank line ended by CRLF, LF or CR.
 *
 * <p>
 * A {@code message} event whose data the rewriter cannot read is withheld, and so is
 * everything after it: the status and headers went out already, so the client's stream
 * just ends ({@link #unfilterable()} tells the policy stage to record why).
 */
final class SseToolListStream extends SynchronousOutputStream {

	private final OutputStream delegate;

	private final ToolListRewriter rewriter;

	private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

	private boolean unfilterable;

	SseToolListStream(OutputStream delegate, ToolListRewriter rewriter) {
		this.delegate = delegate;
		this.rewriter = rewriter;
	}

	@Override
	public void write(byte[] buffer, int offset, int length) throws IOException {
		if (this.unfilterable) {
			return;
		}
		this.pending.write(buffer, offset, length);
		emitCompleteEvents();
	}

	/** Whether an event could not be filtered, and it and the rest were withheld. */
	boolean unfilterable() {
		return this.unfilterable;
	}

	@Override
	public void flush() throws IOException {
		this.delegate.flush();
	}

	/**
	 * Drops an incomplete last event: its data could not be checked, and a client
	 * discards an event the stream ends in anyway (HTML Living Standard, server-sent
	 * events, "any pending data must be discarded").
	 */
	@Override
	public void close() throws IOException {
		this.pending.reset();
		this.delegate.flush();
	}

	private void emitCompleteEvents() throws IOException {
		byte[] bytes = this.pending.toByteArray();
		int start = 0;
		int end;
		while (!this.unfilterable && (end = eventEnd(bytes, start)) > 0) {
			emit(bytes, start, end);
			start = end;
		}
		if (this.unfilterable) {
			this.pending.reset();
			return;
		}
		if (start > 0) {
			this.pending.reset();
			this.pending.write(bytes, start, bytes.length - start);
		}
	}

	/**
	 * Index just after the blank line that ends the first event at or after {@code from},
	 * or -1 when no event is complete yet. A blank line is two line terminators in a row,
	 * each CRLF, LF or CR; a CR as the last byte cannot be judged until the next byte
	 * arrives.
	 */
	static int eventEnd(byte[] bytes, int from) {
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

	private void emit(byte[] bytes, int start, int end) throws IOException {
		String event = new String(bytes, start, end - start, StandardCharsets.UTF_8);
		StringBuilder others = new StringBuilder();
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
					type = line.substring(6).trim();
				}
				others.append(line).append('\n');
			}
		}
		// An event whose data is empty is never dispatched to the client (SSE
		// specification): a priming event carries only an id.
		ToolListRewriter.Result result = (data != null && !data.isEmpty() && "message".equals(type))
				? this.rewriter.rewrite(data.toString().getBytes(StandardCharsets.UTF_8))
				: ToolListRewriter.Result.UNCHANGED;
		if (result.unfilterable()) {
			this.unfilterable = true;
			return;
		}
		byte[] rewritten = result.rewritten();
		if (rewritten == null) {
			this.delegate.write(bytes, start, end - start);
			return;
		}
		this.delegate.write(others.toString().getBytes(StandardCharsets.UTF_8));
		this.delegate.write("data: ".getBytes(StandardCharsets.UTF_8));
		this.delegate.write(rewritten);
		this.delegate.write("\n\n".getBytes(StandardCharsets.UTF_8));
	}

}
