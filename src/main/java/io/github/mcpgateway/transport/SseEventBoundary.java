package io.github.mcpgateway.transport;

/**
 * Follows a {@code text/event-stream} as its bytes arrive, piece by piece, to find where
 * events end: at a blank line, each line ended by CRLF, LF or CR (a CR at the end of a
 * piece is decided by the next byte). Not thread-safe.
 */
public final class SseEventBoundary {

	private boolean atLineStart = true;

	private boolean pendingCr;

	private boolean betweenEvents = true;

	/** Forgets what it saw: the next byte starts an event. */
	public void reset() {
		this.atLineStart = true;
		this.pendingCr = false;
		this.betweenEvents = true;
	}

	/**
	 * Whether every event seen so far is complete: anything written now starts an event
	 * of its own. {@code false} while a CR at the end may yet turn out to be a CRLF.
	 */
	public boolean betweenEvents() {
		return this.betweenEvents && !this.pendingCr;
	}

	/**
	 * Reads a piece; returns the index just after the first event end in it, or -1 when
	 * the piece ends none (call again with the rest to find the next).
	 */
	public int scan(byte[] buffer, int offset, int length) {
		for (int i = offset; i < offset + length; i++) {
			byte b = buffer[i];
			if (this.pendingCr) {
				this.pendingCr = false;
				if (b == '\n') {
					if (lineEnded()) {
						return i + 1;
					}
					continue;
				}
				if (lineEnded()) {
					// A lone CR ended the blank line; this byte starts the next event.
					return i;
				}
			}
			if (b == '\r') {
				this.pendingCr = true;
			}
			else if (b == '\n') {
				if (lineEnded()) {
					return i + 1;
				}
			}
			else {
				this.atLineStart = false;
				this.betweenEvents = false;
			}
		}
		return -1;
	}

	/** Reads a whole piece, however many events end in it. */
	public void scanAll(byte[] buffer, int offset, int length) {
		int end = offset + length;
		int next = offset;
		int found;
		while (next < end && (found = scan(buffer, next, end - next)) >= 0) {
			next = found;
		}
	}

	/** A line ended; returns whether it was blank (an event's end). */
	private boolean lineEnded() {
		boolean blank = this.atLineStart;
		this.atLineStart = true;
		if (blank) {
			this.betweenEvents = true;
		}
		return blank;
	}

}
