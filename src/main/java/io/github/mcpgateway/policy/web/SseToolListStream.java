package io.github.mcpgateway.policy.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import io.github.mcpgateway.transport.SseEvent;
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
		while (!this.unfilterable && (end = SseEvent.eventEnd(bytes, start)) > 0) {
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

	private void emit(byte[] bytes, int start, int end) throws IOException {
		SseEvent event = SseEvent.parse(new String(bytes, start, end - start, StandardCharsets.UTF_8));
		// An event whose data is empty is never dispatched to the client: a priming
		// event carries only an id.
		ToolListRewriter.Result result = event.isMessage()
				? this.rewriter.rewrite(event.data().getBytes(StandardCharsets.UTF_8))
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
		for (String line : event.otherLines()) {
			this.delegate.write((line + "\n").getBytes(StandardCharsets.UTF_8));
		}
		this.delegate.write("data: ".getBytes(StandardCharsets.UTF_8));
		this.delegate.write(rewritten);
		this.delegate.write("\n\n".getBytes(StandardCharsets.UTF_8));
	}

}
