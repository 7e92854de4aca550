package io.github.mcpgateway.stdio;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Splits a byte stream into lines ending with {@code \n} (a {@code \r} before it is
 * dropped), each at most {@code maxLineBytes} long: a process cannot make the gateway
 * hold more than that for one line, however long it writes without a newline. A longer
 * line is refused ({@link LineTooLongException}) or, for a framer that cuts, cut to the
 * bound and the rest of it skipped. Not thread-safe: one reader.
 */
final class LineFramer {

	private static final int CHUNK = 8192;

	private final InputStream in;

	private final int maxLineBytes;

	private final byte[] chunk = new byte[CHUNK];

	private int position;

	private int limit;

	private final boolean cut;

	private LineFramer(InputStream in, int maxLineBytes, boolean cut) {
		Assert.notNull(in, "in must not be null");
		Assert.isTrue(maxLineBytes > 0, "maxLineBytes must be positive");
		this.in = in;
		this.maxLineBytes = maxLineBytes;
		this.cut = cut;
	}

	/** Lines past the bound are refused: for messages. */
	static LineFramer refusing(InputStream in, int maxLineBytes) {
		return new LineFramer(in, maxLineBytes, false);
	}

	/** Lines past the bound are cut to it: for text that is only shown. */
	static LineFramer cutting(InputStream in, int maxLineBytes) {
		return new LineFramer(in, maxLineBytes, true);
	}

	/**
	 * The next line, without its end; a last line without a newline counts as a line.
	 * @return the line, or {@code null} at the end of the stream
	 * @throws LineTooLongException when the line passes {@code maxLineBytes} and this
	 * framer refuses (nothing more is read)
	 * @throws IOException when the stream fails
	 */
	byte @Nullable [] next() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		while (true) {
			if (this.position == this.limit && !fill()) {
				return (line.size() > 0) ? withoutCarriageReturn(line.toByteArray()) : null;
			}
			int end = indexOfNewline();
			int taken = ((end >= 0) ? end : this.limit) - this.position;
			int room = this.maxLineBytes + 1 - line.size();
			if (taken > room && !this.cut) {
				throw new LineTooLongException();
			}
			line.write(this.chunk, this.position, Math.min(taken, room));
			this.position += taken;
			if (end >= 0) {
				this.position++;
				return withoutCarriageReturn(line.toByteArray());
			}
		}
	}

	private boolean fill() throws IOException {
		int read = this.in.read(this.chunk);
		this.position = 0;
		this.limit = Math.max(read, 0);
		return read > 0;
	}

	private int indexOfNewline() {
		for (int i = this.position; i < this.limit; i++) {
			if (this.chunk[i] == '\n') {
				return i;
			}
		}
		return -1;
	}

	// One byte over the bound is allowed while reading, for a \r that is then dropped.
	private byte[] withoutCarriageReturn(byte[] line) throws LineTooLongException {
		byte[] kept = (line.length > 0 && line[line.length - 1] == '\r') ? Arrays.copyOf(line, line.length - 1) : line;
		if (kept.length <= this.maxLineBytes) {
			return kept;
		}
		if (this.cut) {
			return Arrays.copyOf(kept, this.maxLineBytes);
		}
		throw new LineTooLongException();
	}

	/** A line longer than the bound. */
	static final class LineTooLongException extends IOException {

		LineTooLongException() {
			super("line too long");
		}

	}

}
