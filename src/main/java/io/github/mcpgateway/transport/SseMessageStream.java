package io.github.mcpgateway.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Relays a {@code text/event-stream} event by event, asking a {@link MessageFilter} about
 * the data of every {@code message} event.
 *
 * <p>
 * Only the event being received is held back (an incomplete event is of no use to a
 * client anyway); each complete event is written and flushed when the proxy flushes.
 * Events that are not messages (comments, keep-alives, priming events with an id only)
 * pass byte for byte, and so do messages the filter passes. A dropped message is left out
 * whole, its id line included. Event boundaries follow the SSE specification: a blank
 * line ended by CRLF, LF or CR.
 *
 * <p>
 * A message the filter withholds is not written, and neither is anything after it: the
 * status and headers went out already, so the client's stream just ends
 * ({@link #withheld()} tells the stage to record why).
 *
 * <p>
 * Memory is bounded by {@code maxEventBytes}: an event that grows past it is withheld
 * like an unreadable message ({@link FilteredResponse.Unreadable#WITHHOLD}), or relayed
 * as it comes, unread, to its end ({@link FilteredResponse.Unreadable#PASS}); the events
 * after it are filtered again.
 */
final class SseMessageStream extends SynchronousOutputStream {

	private final OutputStream delegate;

	private final MessageFilter filter;

	private final int maxEventBytes;

	private final FilteredResponse.Unreadable oversized;

	private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

	private final SseEventBoundary passing = new SseEventBoundary();

	private boolean withheld;

	/** Whether an oversized event is being relayed unread, up to its end. */
	private boolean passingEvent;

	SseMessageStream(OutputStream delegate, MessageFilter filter, int maxEventBytes,
			FilteredResponse.Unreadable oversized) {
		this.delegate = delegate;
		this.filter = filter;
		this.maxEventBytes = maxEventBytes;
		this.oversized = oversized;
	}

	@Override
	public void write(byte[] buffer, int offset, int length) throws IOException {
		if (this.withheld) {
			return;
		}
		if (this.passingEvent) {
			int end = this.passing.scan(buffer, offset, length);
			int through = (end < 0) ? length : end - offset;
			this.delegate.write(buffer, offset, through);
			if (end < 0) {
				return;
			}
			this.passingEvent = false;
			offset = end;
			length -= through;
		}
		this.pending.write(buffer, offset, length);
		emitCompleteEvents();
		if (!this.withheld && this.pending.size() > this.maxEventBytes) {
			oversizedEvent();
		}
	}

	private void oversizedEvent() throws IOException {
		if (this.oversized == FilteredResponse.Unreadable.WITHHOLD) {
			this.withheld = true;
			this.pending.reset();
			return;
		}
		byte[] bytes = this.pending.toByteArray();
		this.pending.reset();
		this.passingEvent = true;
		this.passing.reset();
		write(bytes, 0, bytes.length);
	}

	/** Whether a message was withheld, and it and the rest of the stream with it. */
	boolean withheld() {
		return this.withheld;
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
		while (!this.withheld && (end = SseEvent.eventEnd(bytes, start)) > 0) {
			emit(bytes, start, end);
			start = end;
		}
		if (this.withheld) {
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
		MessageFilter.Verdict verdict = event.isMessage()
				? this.filter.filter(event.data().getBytes(StandardCharsets.UTF_8)) : MessageFilter.Verdict.PASS;
		List<String> lines = idsRewritten(event.otherLines());
		switch (verdict.kind()) {
			case PASS -> {
				if (lines == null) {
					this.delegate.write(bytes, start, end - start);
				}
				else {
					write(lines, event.data());
				}
			}
			case DROP -> {
			}
			case WITHHOLD -> this.withheld = true;
			case REWRITE -> write((lines != null) ? lines : event.otherLines(),
					new String(verdict.rewritten(), StandardCharsets.UTF_8));
		}
	}

	/**
	 * The event's other lines with its {@code id} as the filter gives it, or {@code null}
	 * when the filter keeps it (or the event has none).
	 */
	private @Nullable List<String> idsRewritten(List<String> others) {
		List<String> lines = null;
		for (int i = 0; i < others.size(); i++) {
			String line = others.get(i);
			if (line.startsWith("id:")) {
				String id = line.substring(3).startsWith(" ") ? line.substring(4) : line.substring(3);
				String rewritten = this.filter.eventId(id);
				if (!rewritten.equals(id)) {
					lines = (lines != null) ? lines : new ArrayList<>(others);
					lines.set(i, "id: " + rewritten);
				}
			}
		}
		return lines;
	}

	/** One event of {@code lines} and {@code data} (LF-separated lines, or none). */
	private void write(List<String> lines, @Nullable String data) throws IOException {
		StringBuilder event = new StringBuilder();
		for (String line : lines) {
			event.append(line).append('\n');
		}
		if (data != null) {
			for (String line : data.split("\n", -1)) {
				event.append("data: ").append(line).append('\n');
			}
		}
		event.append('\n');
		this.delegate.write(event.toString().getBytes(StandardCharsets.UTF_8));
	}

}
